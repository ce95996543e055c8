local function build(lo, hi)
  if lo >= hi then return nil end
  local mid = math.floor((lo + hi) / 2)  -- LuaJIT (Lua 5.1) has no //
  return {build(lo, mid), mid, build(mid + 1, hi)}
end

local function total(t)
  if t == nil then return 0 end
  return total(t[1]) + t[2] + total(t[3])
end

print(total(build(0, 1000000)))
