local acc = 0
for i = 0, 10000000 - 1 do
  acc = acc + i * i % 7
end
print(acc)
