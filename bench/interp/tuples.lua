local n = 1000000
local pairs = {}
for i = 0, n - 1 do
  pairs[i + 1] = {i, i * 2}
end
local acc = 0
for k = 1, n do
  local p = pairs[k]
  acc = acc + p[1] + p[2]
end
print(acc)
