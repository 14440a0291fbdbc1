#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database accesses that run on the current execution context, and so
/// the connections it may use: the rule that catches reentrant accesses,
/// which would deadlock, and lets distinct databases nest.
///
/// An access (the closure of `read`, `write`, `inDatabase`...) runs on the
/// serial queue of its connection. When it calls the access method of
/// another database, that access runs inside it and inherits its
/// context: `a.write { b.write { ... } }` may use the connections of `a`
/// and `b`. Calling into a database that is already in the context would
/// wait for a queue that the context itself holds, directly or through the
/// nested accesses (`a.write { b.write { a.read { } } }`): that is the
/// programmer error to trap on. An asynchronous access starts a new
/// context, which inherits nothing.
///
/// A *database* is what the user calls access methods on (a
/// `DatabaseQueue`, a `DatabasePool`); it owns one or more *connections*
/// (`Database`): a queue one, a pool one writer and its readers.
///
/// ## Use (DatabaseQueue does this; DatabasePool does the same per connection)
///
/// ```swift
/// // A synchronous access, on the caller's thread:
/// let context = AccessContext.current          // 1. capture before dispatching
/// context.preconditionNotAccessing(self, description: label)  // 2. trap on reentrancy
/// return try queue.sync {                      // 3. on the connection's queue:
///     // check that the database is open here, inside the serialized block
///     try context.run(connection, of: self) { db in try body(db) }
/// }
///
/// // An asynchronous access: a fresh context.
/// queue.async { AccessContext.none.run(connection, of: self) { db in ... } }
/// ```
///
/// - `current`: the accesses of the calling thread (`none` outside of any).
/// - `none`: no access, for asynchronous accesses.
/// - `isAccessing(_ database:)`: whether one of the database's connections
///   is in use on the context. The methods that would wait for any of them
///   trap when it is true (a queue's accesses, a pool's `close` and
///   barriers): `preconditionNotAccessing(_:description:)` does that with
///   the message.
/// - `isAccessing(_:except:)`: whether another connection of the database
///   than the given one is in use. As in GRDB, a pool's `read` traps inside
///   one of its reads, not inside its writes (it takes a reader then), and
///   its `write` traps when `allows(writer)`, not inside its reads.
/// - `innermostConnection(of:where:)`: the innermost connection of the
///   database in use on the context, if any. The reentrant methods run
///   their closure on it directly: `unsafeReentrantWrite` when it is the
///   writer, `unsafeReentrantRead` whatever it is (on a pool, the reader of
///   the enclosing read, else the writer of the enclosing write); otherwise
///   they dispatch normally (a pool's `unsafeReentrantRead` takes a reader).
/// - `allows(_ connection:)`: whether the context may use the connection;
///   `asyncConcurrentRead` requires it of the writer, then starts the read
///   on a reader with `none.run(reader, of: pool)`.
/// - `run(_:of:_:)`: runs a closure as an access of the connection, within
///   this context. Call it on the connection's queue. It also makes the
///   running thread the connection's owner for `Database`'s checks of use
///   outside of an access.
///
/// Cost: no allocation. The context is a chain of frames on the stacks of
/// the accesses, found through one thread-local slot; each check walks
/// the chain, which is as long as the nesting (usually one frame).
struct AccessContext {
    /// The innermost frame, or nil outside of any access.
    private let top: UnsafePointer<AccessFrame>?

    private init(top: UnsafePointer<AccessFrame>?) {
        self.top = top
    }

    /// The accesses running on the calling thread.
    static var current: AccessContext {
        AccessContext(top: pthread_getspecific(accessFrameKey).map {
            // unsafe: the slot only ever holds a pointer to an AccessFrame set by `run`.
            UnsafePointer($0.assumingMemoryBound(to: AccessFrame.self))
        })
    }

    /// No access: the context of an asynchronous access.
    static var none: AccessContext { AccessContext(top: nil) }

    /// Whether a connection of `database` is in use on this context.
    func isAccessing(_ database: AnyObject) -> Bool {
        let id = ObjectIdentifier(database)
        var frame = top
        while let current = frame {
            if current.pointee.database == id { return true }
            frame = current.pointee.parent
        }
        return false
    }

    /// Traps if a connection of `database` is in use on this context: the
    /// access would wait for a queue that this context holds.
    func preconditionNotAccessing(_ database: AnyObject, description: @autoclosure () -> String) {
        if isAccessing(database) {
            Self.reentrancyFailure(description())
        }
    }

    /// Traps with the message of a reentrant access to the database
    /// described by `description`.
    static func reentrancyFailure(_ description: String) -> Never {
        fatalError("""
            Database methods are not reentrant: \(description) was accessed from inside one of \
            its own access blocks (a `write` inside a `write`, or a `read` inside an access of \
            another database that runs inside a `write`, for example), which would deadlock. \
            Use the `Database` you already have (`db.inSavepoint` for a nested transaction), \
            or `unsafeReentrantWrite`/`unsafeReentrantRead` if the nesting is intended.
            """)
    }

    /// Whether a connection of `database` other than `connection` is in
    /// use on this context: a pool's `read` traps when one of its readers
    /// is, and not when only its writer is.
    func isAccessing(_ database: AnyObject, except connection: Database) -> Bool {
        innermostConnection(of: database) { $0 !== connection } != nil
    }

    /// The innermost connection of `database` in use on this context that
    /// satisfies `predicate`.
    func innermostConnection(of database: AnyObject, where predicate: (Database) -> Bool) -> Database? {
        let id = ObjectIdentifier(database)
        var frame = top
        while let current = frame {
            if current.pointee.database == id && predicate(current.pointee.connection) {
                return current.pointee.connection
            }
            frame = current.pointee.parent
        }
        return nil
    }

    /// Whether this context may use `connection`.
    func allows(_ connection: Database) -> Bool {
        var frame = top
        while let current = frame {
            if current.pointee.connection === connection { return true }
            frame = current.pointee.parent
        }
        return false
    }

    /// Runs `body` as an access of `connection`, a connection of
    /// `database`, within this context. Call it on the connection's queue.
    func run<T>(
        _ connection: Database,
        of database: AnyObject,
        _ body: (Database) throws -> T) rethrows -> T
    {
        let frame = AccessFrame(database: ObjectIdentifier(database), connection: connection, parent: top)
        // unsafe pointer to the frame: alive until the body returns, as explained below.
        return try withUnsafePointer(to: frame) { pointer in
            // The frame outlives its publication: the slot is restored
            // before `withUnsafePointer` returns, and nested contexts that
            // point to it end first (their accesses run inside this one).
            let previous = pthread_getspecific(accessFrameKey)
            pthread_setspecific(accessFrameKey, pointer)
            defer { pthread_setspecific(accessFrameKey, previous) }
            return try connection.withAccess(body)
        }
    }
}

/// One access in a context: which database, through which connection, and
/// the access it runs inside of.
private struct AccessFrame {
    let database: ObjectIdentifier
    // unowned(unsafe): the access that publishes the frame keeps the
    // connection alive until the frame is unpublished.
    unowned(unsafe) let connection: Database
    let parent: UnsafePointer<AccessFrame>?
}

/// The thread-local slot that holds the innermost frame of each thread.
private let accessFrameKey: pthread_key_t = {
    var key = pthread_key_t()
    let code = pthread_key_create(&key, nil)
    precondition(code == 0, "GRDBLite could not create its thread-local access slot (error \(code))")
    return key
}()
