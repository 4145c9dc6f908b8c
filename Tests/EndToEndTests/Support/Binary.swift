import Foundation

/// The built `bulwark` binary, run as a user would run it.
enum Binary {
    static var path: String {
        if let path = ProcessInfo.processInfo.environment["BULWARK_BIN"], !path.isEmpty { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/bulwark").path
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Where the binary under test keeps its state (the change counters it saw).
    static let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("bulwark-e2e-state").path

    /// Runs the binary to completion with the given arguments, standard
    /// input and extra environment.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        // The tester's own config file must not change what a test sees.
        env["BULWARK_CONFIG"] = "/nonexistent/bulwark-test-config"
        // Nor its record of the vaults it has seen (and tests leave none there).
        env["XDG_STATE_HOME"] = stateDirectory
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(stdin.utf8))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }
}
