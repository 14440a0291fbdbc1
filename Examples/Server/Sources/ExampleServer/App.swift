import Foundation
import GRDBLite
import Hummingbird

/// The server: opens and migrates the database, then serves HTTP on 127.0.0.1 until SIGINT or
/// SIGTERM, then closes the database.
@main
struct ServerApp {
    static func main() async throws {
        let processInfo = ProcessInfo.processInfo
        let arguments = Array(processInfo.arguments.dropFirst())
        guard let options = Options.parse(arguments, environment: processInfo.environment) else {
            FileHandle.standardError.write(Data((Options.usage + "\n").utf8))
            exit(2)
        }
        let pool = try AppDatabase.open(path: options.databasePath)
        let app = Application(
            router: buildRouter(pool: pool),
            configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "ExampleServer"))
        try await app.runService()
        try pool.close()
    }
}
