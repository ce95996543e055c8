local M = 1000003
local ops = {
  {tag = "add", k = 7}, {tag = "mul", k = 3}, {tag = "sub", k = 5},
  {tag = "neg"}, {tag = "nop"},
}
local acc = 1
for i = 0, 10000000 - 1 do
  local op = ops[i % 5 + 1]
  local tag = op.tag
  if tag == "add" then
    acc = (acc + op.k) % M
  elseif tag == "sub" then
    acc = (acc - op.k + M) % M
  elseif tag == "mul" then
    acc = acc * op.k % M
  elseif tag == "neg" then
    acc = (M - acc) % M
  end  -- "nop": acc unchanged
end
print(acc)
