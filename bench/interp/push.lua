-- Builds an array of 10^6 integers by t[#t + 1] = x, then sums it.
local t = {}
for i = 0, 1000000 - 1 do t[#t + 1] = i end
local s = 0
for i = 1, #t do s = s + t[i] end
print(s)
