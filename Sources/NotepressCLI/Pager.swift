import Foundation
import Notepress

/// The pager of `notepress view`, chosen and run the way git runs its pager (git-config(1)
/// `core.pager`, git's pager.c):
/// - the command is `NOTEPRESS_PAGER`, else `PAGER`, else `less -R`; an empty value or `cat`
///   means no pager (the text is written directly);
/// - a command from the environment runs through `/bin/sh -c`, so it may hold options and
///   pipes (`PAGER='less -R'`);
/// - `LESS=FRX` (quit when the text fits one screen, pass colour escapes, leave the text on the
///   screen) and `LV=-c` (colour for lv) are added when unset; a user's own values are kept;
/// - the pager is started with posix_spawn in notepress's process group, so it stays in the
///   terminal's foreground group and reads keys from the terminal (a pager in a group of its own
///   is stopped by SIGTTOU/SIGTTIN and the writer blocks on the full pipe for ever);
/// - while the text is written SIGPIPE is ignored (a pager quit early ends the writing with
///   EPIPE, not the process); while the pager runs, SIGINT and SIGQUIT are ignored by notepress,
///   as git and man(1) do, so Ctrl-C reaches the pager alone.
enum Pager {
    /// The command to run (an argument vector), or `nil` for no pager.
    static func command(environment: [String: String]) -> [String]? {
        let configured = environment["NOTEPRESS_PAGER"] ?? environment["PAGER"]
        guard let configured else { return ["less", "-R"] }
        let trimmed = configured.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "cat" { return nil }
        return ["/bin/sh", "-c", configured]
    }

    /// The pager's environment: `environment` with `LESS=FRX` and `LV=-c` when they are unset.
    static func environment(_ environment: [String: String]) -> [String: String] {
        var env = environment
        if env["LESS"] == nil { env["LESS"] = "FRX" }
        if env["LV"] == nil { env["LV"] = "-c" }
        return env
    }

    /// Writes `bytes` through the pager and waits for it to end. Returns `false` when there is no
    /// pager or it cannot be started (the caller then writes to standard output itself).
    static func page(_ bytes: [UInt8], environment: [String: String]) -> Bool {
        guard let argv = command(environment: environment) else { return false }
        return Platform.ignoringSignals([.brokenPipe, .interrupt, .quit]) {
            guard case .success(let child) = Platform.spawnWithInputPipe(argv, environment: Self.environment(environment)) else {
                return false
            }
            // EPIPE (the pager quit before reading everything) is not an error here.
            Platform.writeAll(child.input, bytes)
            Platform.closeDescriptor(child.input)
            _ = Platform.waitForExit(child.pid)
            return true
        }
    }
}
