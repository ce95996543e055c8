local function count(i, acc)
  if i == 0 then return acc end
  return count(i - 1, acc + 1)
end
print(count(10000000, 0))
