-- wrk script for scripts/bench-cluster.sh and scripts/bench-durable.sh: PUT /profile/1 of each
-- account in turn (file $TOKENS, a token a line), or of the shared profile without it.
local n = 0
function init(args)
    tokens = {}
    if os.getenv("TOKENS") then for line in io.lines(os.getenv("TOKENS")) do tokens[#tokens + 1] = line end end
end
function request()
    n = n + 1
    local headers = { ["Content-Type"] = "application/x-www-form-urlencoded" }
    if #tokens > 0 then headers["X-Practicum-Mobile-Token"] = tokens[n % #tokens + 1] end
    return wrk.format("PUT", "/api/v1/profile/1", headers, "likes=" .. (n % 95 + 1) .. "&description=p" .. n)
end
