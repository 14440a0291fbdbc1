import GRDBLite
import Testing

private struct Chat: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
}

private struct Post: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var chatId: Int64
    var date: Int
}

private struct ChatInfo: Decodable, FetchableRecord, Equatable {
    var chat: Chat
    var latestPost: Post?
}

private struct Answer: Decodable, FetchableRecord, Equatable {
    var value: Int
}

@Suite struct CommonTableExpressionTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE chat (id INTEGER PRIMARY KEY);
                CREATE TABLE post (
                    id INTEGER PRIMARY KEY,
                    chatId INTEGER NOT NULL REFERENCES chat(id),
                    date INTEGER NOT NULL);
                INSERT INTO chat VALUES (1), (2), (3);
                INSERT INTO post VALUES (1, 1, 1), (2, 1, 3), (3, 1, 2), (4, 2, 5), (5, 2, 4);
                """)
        }
    }

    @Test func withClauseFromSQLAndLiterals() throws {
        try dbQueue.read { db throws in
            let cte = CommonTableExpression(named: "cte", sql: "SELECT ?", arguments: ["O'Brien"])
            #expect(cte.tableName == "cte")
            let request = Table("chat").with(cte).filter(Column("id") == 1)
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"WITH "cte" AS (SELECT ?) SELECT * FROM "chat" WHERE "id" = ?"#)
            #expect(arguments == ["O'Brien", 1])

            let literal = CommonTableExpression(named: "cte", columns: ["a", "b"], literal: "SELECT \(1), \(2)")
            #expect(
                try sqlAndArguments(db, literal.all().with(literal)).sql
                    == #"WITH "cte"("a", "b") AS (SELECT ?, ?) SELECT * FROM "cte""#)
            #expect(try Row.fetchOne(db, literal.all().with(literal)) == ["a": 1, "b": 2])

            // The last expression of a name wins.
            let other = CommonTableExpression(named: "cte", sql: "SELECT 2 AS a")
            #expect(try Int.fetchOne(db, literal.all().with(literal).with(other).select(Column("a"))) == 2)
        }
    }

    @Test func fetchFromExpression() throws {
        try dbQueue.read { db throws in
            let rows = CommonTableExpression(named: "answer", sql: "SELECT 42 AS value")
            #expect(try rows.all().with(rows).fetchOne(db) == ["value": 42])
            let answers = CommonTableExpression<Answer>(named: "answer", sql: "SELECT 42 AS value")
            #expect(try answers.all().with(answers).fetchOne(db) == Answer(value: 42))
            let posts = CommonTableExpression<Post>(named: "recentPost", request: Post.filter(Column("date") > 3))
            #expect(try posts.all().with(posts).fetchAll(db).map(\.id) == [4, 5])
        }
    }

    @Test func recursiveExpression() throws {
        func counter(_ range: ClosedRange<Int>) -> QueryInterfaceRequest<Int> {
            let cte = CommonTableExpression<Int>(
                recursive: true, named: "counter", columns: ["x"],
                literal: "VALUES(\(range.lowerBound)) UNION ALL SELECT x+1 FROM counter WHERE x < \(range.upperBound)")
            return cte.all().with(cte)
        }
        try dbQueue.read { db throws in
            #expect(try sqlAndArguments(db, counter(0...10)).sql == """
                WITH RECURSIVE "counter"("x") AS (VALUES(?) UNION ALL SELECT x+1 FROM counter WHERE x < ?) \
                SELECT * FROM "counter"
                """)
            #expect(try counter(0...10).fetchAll(db) == Array(0...10))
            #expect(try counter(3...7).fetchAll(db) == Array(3...7))
        }
    }

    @Test func expressionInFiltersAndBatchChanges() throws {
        try dbQueue.write { db throws in
            let cte = CommonTableExpression(named: "maxDate", sql: "SELECT MAX(date) FROM post")
            let request = Post.with(cte).filter(Column("date") == cte.all())
            #expect(try sqlAndArguments(db, request).sql == """
                WITH "maxDate" AS (SELECT MAX(date) FROM post) \
                SELECT * FROM "post" WHERE "date" = (SELECT * FROM "maxDate")
                """)
            #expect(try request.fetchAll(db).map(\.id) == [4])

            let ids = CommonTableExpression(named: "ids", sql: "SELECT 1 UNION ALL SELECT 2")
            var deleted = 0
            let sql = try recordedSQL(db) {
                deleted = try Post.with(ids).filter(ids.contains(Column("id"))).deleteAll(db)
            }
            #expect(deleted == 2)
            #expect(sql.last == #"WITH "ids" AS (SELECT 1 UNION ALL SELECT 2) DELETE FROM "post" WHERE "id" IN "ids""#)
            #expect(try Post.fetchCount(db) == 3)

            let updated = try Post.with(cte).updateAll(db, Column("date").set(to: cte.all()))
            #expect(updated == 3)
            #expect(try Set(Int.fetchAll(db, sql: "SELECT date FROM post")) == [5])
        }
    }

    @Test func associationWithACondition() throws {
        try dbQueue.read { db throws in
            // SQLite takes the bare columns from the row of the maximum.
            let latestPostCTE = CommonTableExpression(
                named: "latestPost",
                request: Post.annotated(with: max(Column("date"))).group(Column("chatId")))
            let latestPost = Chat.association(to: latestPostCTE) { chat, post in
                chat[Column("id")] == post[Column("chatId")]
            }
            let request = Chat.with(latestPostCTE)
                .including(optional: latestPost)
                .orderByPrimaryKey()
                .asRequest(of: ChatInfo.self)
            #expect(try sqlAndArguments(db, request).sql == """
                WITH "latestPost" AS (SELECT *, MAX("date") FROM "post" GROUP BY "chatId") \
                SELECT "chat".*, "latestPost".* FROM "chat" \
                LEFT JOIN "latestPost" ON "chat"."id" = "latestPost"."chatId" \
                ORDER BY "chat"."id"
                """)
            #expect(try request.fetchAll(db) == [
                ChatInfo(chat: Chat(id: 1), latestPost: Post(id: 2, chatId: 1, date: 3)),
                ChatInfo(chat: Chat(id: 2), latestPost: Post(id: 4, chatId: 2, date: 5)),
                ChatInfo(chat: Chat(id: 3), latestPost: nil),
            ])

            // Required: chats without posts are left out.
            let required = Chat.with(latestPostCTE).joining(required: latestPost)
            #expect(try required.fetchAll(db).map(\.id) == [1, 2])
        }
    }

    @Test func associationToAllRowsAndFromAnExpression() throws {
        try dbQueue.read { db throws in
            let answer = CommonTableExpression(named: "answer", sql: "SELECT 42 AS value")
            let request = Chat.with(answer)
                .including(required: Chat.association(to: answer).select(Column("value").forKey("answer")))
                .orderByPrimaryKey()
            #expect(try sqlAndArguments(db, request).sql == """
                WITH "answer" AS (SELECT 42 AS value) \
                SELECT "chat".*, "answer"."value" AS "answer" FROM "chat" JOIN "answer" ORDER BY "chat"."id"
                """)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["id"] as Int64 } == [1, 2, 3])
            #expect(rows.map { $0.scopes["answer"]?["answer"] as Int? } == [42, 42, 42])

            let chatIds = CommonTableExpression(named: "chatIds", sql: "SELECT 2 AS id")
            let chats = chatIds.association(to: Chat.self) { ids, chat in ids[Column("id")] == chat[Column("id")] }
            let fromExpression = chatIds.all().with(chatIds).including(required: chats)
            let row = try #require(try Row.fetchOne(db, fromExpression))
            #expect(row.scopes["chat"]?["id"] as Int64? == 2)
        }
    }

    @Test func expressionDeclaredOnAJoinedAssociation() throws {
        try dbQueue.read { db throws in
            let cte = CommonTableExpression(named: "cte", sql: "SELECT 1")
            let chat = Post.belongsTo(Chat.self).with(cte)
            let request = Post.joining(optional: chat).filter(sql: "EXISTS (SELECT * FROM cte)")
            #expect(try sqlAndArguments(db, request).sql == """
                WITH "cte" AS (SELECT 1) SELECT "post".* FROM "post" \
                LEFT JOIN "chat" ON "chat"."id" = "post"."chatId" WHERE EXISTS (SELECT * FROM cte)
                """)
            #expect(try request.fetchCount(db) == 5)
        }
    }
}
