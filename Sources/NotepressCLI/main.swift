import Foundation
import Notepress
import NotepressSite

// Subcommands: convert (default), view, validate, themes, templates. Each lives in its own file
// as `func run<Name>Command(_ args: [String]) -> Int32`. Exit status: 0 ok, 1 an input failed,
// 2 usage error; ended by SIGINT/SIGTERM/SIGHUP (temporaries removed first): 128 + the signal.
Temporaries.installInterruptCleanup()
let args = Array(CommandLine.arguments.dropFirst())
exit(StandardOutput.finish(dispatch(args)))
