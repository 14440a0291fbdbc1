/// The command line: `ExampleServer [--port N] [--database PATH]`. The database path may
/// come from the `DATABASE_PATH` environment variable instead (the option wins); it is
/// `ExampleServer.sqlite` in the current folder without either.
struct Options {
    var port = 8080
    var databasePath = "ExampleServer.sqlite"

    static let usage = "usage: ExampleServer [--port N] [--database PATH] (or DATABASE_PATH=PATH)"

    /// Parses `arguments` (without the program's name); returns nil when they are wrong.
    static func parse(_ arguments: [String], environment: [String: String]) -> Options? {
        var options = Options()
        if let path = environment["DATABASE_PATH"], !path.isEmpty { options.databasePath = path }
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--port":
                guard let port = arguments.popFirst().flatMap(Int.init), (0...65535).contains(port) else {
                    return nil
                }
                options.port = port
            case "--database":
                guard let path = arguments.popFirst(), !path.isEmpty else { return nil }
                options.databasePath = path
            default:
                return nil
            }
        }
        return options
    }
}
