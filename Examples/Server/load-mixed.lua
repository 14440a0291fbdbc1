-- The mixed load of Scripts/example-load.sh, for wrk: nine reads of an author with
-- their books (GET /authors/:id) for one write (POST /books), spread over the
-- AUTHORS authors that the script created first (ids 1...AUTHORS).
--
--   AUTHORS=100 wrk -s Examples/Server/load-mixed.lua --latency http://127.0.0.1:8080

local authors = tonumber(os.getenv("AUTHORS") or "100")
local counter = 0

request = function()
    counter = counter + 1
    local id = math.random(authors)
    if counter % 10 == 0 then
        local body = string.format('{"authorId": %d, "title": "Load %d"}', id, counter)
        return wrk.format("POST", "/books", { ["Content-Type"] = "application/json" }, body)
    end
    return wrk.format("GET", "/authors/" .. id)
end
