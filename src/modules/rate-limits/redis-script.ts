// The sliding-window step of lib/sliding-window.ts as one Lua script, so a check-and-count is atomic
// across every instance sharing the Redis. It must give exactly SlidingWindows.hit's answers (the
// equivalence test holds them together): same operations in the same order, on doubles in both.
//
// KEYS[i]: the counter of check i, a hash s (window start), c (current), p (previous), w (windowMs).
// ARGV[1]: now (the app clock's, never Redis TIME); ARGV[2i], ARGV[2i+1]: check i's limit and windowMs.
// Answers {1, i, remaining, resetAt} (accepted; i: the most constraining check) or {0, i, 0, acceptAt}
// (refused by check i; nothing counted).
export const SLIDING_WINDOW_SCRIPT = `
local now = tonumber(ARGV[1])
local n = #KEYS
local function weighted(s, c, p, w)
  return p * (s + w - now) + c * w
end
local function accept_at(s, c, p, w, limit)
  if weighted(s, c, p, w) < limit * w then return now end
  if c >= limit then return math.floor(s + 2 * w - (limit * w) / c) + 1 end
  return math.floor(s + w - ((limit - c) * w) / p) + 1
end
-- Integers as digits: Lua would write a large number in exponent form and lose its last digits.
local function digits(x)
  return string.format('%.0f', x)
end
local starts, currents, previouses, windows, limits = {}, {}, {}, {}, {}
for i = 1, n do
  local limit = tonumber(ARGV[2 * i])
  local w = tonumber(ARGV[2 * i + 1])
  local saved = redis.call('HMGET', KEYS[i], 's', 'c', 'p', 'w')
  local s, c, p = now - math.fmod(now, w), 0, 0
  if saved[1] and tonumber(saved[4]) == w then
    s, c, p = tonumber(saved[1]), tonumber(saved[2]), tonumber(saved[3])
    if now >= s + w then
      if now >= s + 2 * w then p = 0 else p = c end
      c = 0
      s = now - math.fmod(now, w)
    end
  end
  if weighted(s, c, p, w) >= limit * w then
    return {0, i, 0, accept_at(s, c, p, w, limit)}
  end
  starts[i], currents[i], previouses[i], windows[i], limits[i] = s, c, p, w, limit
end
local best, best_remaining, best_reset = 0, 0, 0
for i = 1, n do
  local s, c, p, w, limit = starts[i], currents[i] + 1, previouses[i], windows[i], limits[i]
  redis.call('HSET', KEYS[i], 's', digits(s), 'c', digits(c), 'p', digits(p), 'w', digits(w))
  -- After two windows every request has slid out: the key would read as a fresh one anyway.
  redis.call('PEXPIRE', KEYS[i], digits(2 * w))
  local left = limit * w - weighted(s, c, p, w)
  local remaining = 0
  if left > 0 then remaining = math.ceil(left / w) end
  if best == 0 or remaining <= best_remaining then
    local reset = s + 2 * w
    if remaining == 0 then reset = accept_at(s, c, p, w, limit) end
    if best == 0 or remaining < best_remaining or reset > best_reset then
      best, best_remaining, best_reset = i, remaining, reset
    end
  end
end
return {1, best, best_remaining, best_reset}
`
