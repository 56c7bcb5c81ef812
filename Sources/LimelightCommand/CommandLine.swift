import ArgumentParser
import LimelightExit

#if canImport(Glibc)
  import Glibc
#endif

extension ParsableCommand {
  /// Parses and runs the command, mapping every error to a one-line message and
  /// the documented status: usage errors exit 2, never with a stack trace.
  public static func mainWithStatus(arguments: [String]? = nil) -> Never {
    let name = configuration.commandName ?? "limelight"
    runWithStatus(name: name, command: self) {
      var command = try parseAsRoot(arguments)
      try command.run()
    }
  }
}

/// Runs a command's body and exits: 0 when it returns, and for an error the
/// documented status with a one-line message (the argument parser's own
/// errors, help and version included).
public func runWithStatus(
  name: String, command: any ParsableCommand.Type = CommandLineErrors.self,
  _ body: () throws -> Void
) -> Never {
  // A parent may have started us with termination signals blocked (threads
  // of many runtimes block them, and children inherit the mask).
  var unblock = sigset_t()
  sigemptyset(&unblock)
  for sig in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&unblock, sig) }
  sigprocmask(SIG_UNBLOCK, &unblock, nil)
  Glibc.exit(commandStatus(name: name, command: command, body))
}

/// Runs a command's body and returns its exit status, after writing the
/// message of an error (one line, "name: message") to `errors`.
/// The argument parser's errors (help and completion scripts among them) are
/// rendered by `command`, the command that was parsed.
public func commandStatus(
  name: String, errors: Int32 = STDERR_FILENO,
  command: any ParsableCommand.Type = CommandLineErrors.self, _ body: () throws -> Void
) -> Int32 {
  do {
    try body()
    return ExitStatus.success
  } catch let error as ExitCode {
    return error.rawValue
  } catch {
    let code = command.exitCode(for: error)
    // An error that is not the parser's (it gives those 0 or 64): said as a
    // search says it (a CommandFailure with its own status, any other 2).
    if code == .failure { return failureStatus(name: name, errors: errors) { throw error } }
    let message = command.fullMessage(for: error)
    if code == .success {
      print(message)
      return ExitStatus.success
    }
    if message.isEmpty {
      printError("\(name): \(error)", to: errors)
    } else {
      printError(
        message.hasPrefix("Error: ") ? "\(name): " + message.dropFirst(7) : message, to: errors)
    }
    return code == .validationFailure || code.rawValue == 64 ? ExitStatus.usage : code.rawValue
  }
}

/// The argument parser's reading of an error, for any command.
/// Renders errors of commands run without a parsed command type.
public struct CommandLineErrors: ParsableCommand {
  public init() {}
}
