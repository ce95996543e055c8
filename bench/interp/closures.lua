local n = 1000000
local adders = {}
for i = 0, n - 1 do
  adders[i + 1] = function(x) return x + i end
end
local acc = 0
for k = 1, n do
  acc = acc + adders[k](1)
end
print(acc)
