-- wrk script for scripts/bench-cluster.sh: mixed reads and writes through nginx to two servers.
-- Each request: 8 in 10 are reads (an NFT, a users page, the caller's profile and cart), 1 in
-- 10 a like (PUT /profile/1 with a description naming the write), 1 in 10 a cart change, each
-- with one of the accounts' tokens (file $TOKENS). Ten requests in a row share a token and hold
-- one like; threads use disjoint tokens, and a token comes back only 320 requests later (16
-- connections per thread), so no two likes of one account are ever in flight together. Every acknowledged profile write is noted; done() writes "token-index sequence" of
-- the last acknowledged write per token to $ACKED for the script to check against the database,
-- and, when $STATUSES names a file, how many answers had each status ("status count" per thread).
-- ONLY=reads makes the writes reads of an NFT; ONLY=writes sends writes only (likes and cart
-- changes in turn, each request with the next token: 32 tokens a thread, 16 connections).
local threads = {}

function setup(thread)
    thread:set("id", #threads)
    table.insert(threads, thread)
end

function init(args)
    tokens = {}
    for line in io.lines(os.getenv("TOKENS")) do tokens[#tokens + 1] = line end
    counter = 0
    acked = {}
    statuses = {}
    nthreads = tonumber(os.getenv("THREADS"))
    only = os.getenv("ONLY")
end

function request()
    counter = counter + 1
    local kind = counter % 10
    local index = (math.floor(counter / 10) * nthreads + id) % #tokens + 1
    if only == "reads" and (kind == 7 or kind == 8) then
        kind = 0
    elseif only == "writes" then
        kind = 7 + counter % 2
        index = (counter * nthreads + id) % #tokens + 1
    end
    local headers = { ["X-Practicum-Mobile-Token"] = tokens[index] }
    if kind < 3 then
        return wrk.format("GET", "/api/v1/nft/" .. (counter % 95 + 1), headers)
    elseif kind < 5 then
        return wrk.format("GET", "/api/v1/users?page=" .. (counter % 5) .. "&size=20", headers)
    elseif kind < 7 then
        return wrk.format("GET", "/api/v1/profile/1", headers)
    elseif kind == 7 then
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return wrk.format("PUT", "/api/v1/profile/1", headers,
            "description=t" .. index .. "s" .. counter .. "&likes=" .. (counter % 95 + 1))
    elseif kind == 8 then
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return wrk.format("PUT", "/api/v1/orders/1", headers, "nfts=" .. (counter % 95 + 1))
    else
        return wrk.format("GET", "/api/v1/orders/1", headers)
    end
end

function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
    if status ~= 200 then return end
    local index, sequence = string.match(body, '"description":"t(%d+)s(%d+)"')
    if index then
        index, sequence = tonumber(index), tonumber(sequence)
        if (acked[index] or 0) < sequence then acked[index] = sequence end
    end
end

function done(summary, latency, requests)
    local file = io.open(os.getenv("ACKED"), "w")
    for _, thread in ipairs(threads) do
        for index, sequence in pairs(thread:get("acked")) do file:write(index, " ", sequence, "\n") end
    end
    file:close()
    if os.getenv("STATUSES") then
        file = io.open(os.getenv("STATUSES"), "w")
        for _, thread in ipairs(threads) do
            for status, count in pairs(thread:get("statuses")) do file:write(status, " ", count, "\n") end
        end
        file:close()
    end
end
