import Foundation
import Notepress
import NotepressSite

// The subcommands are listed once, in `Commands.all` (help and completions come from it), and
// dispatched in Dispatch.swift (convert is the default); each is a
// `func run<Name>Command(_ args: [String]) -> Int32`. Exit status: 0 ok, 1 an input failed,
// 2 usage error; ended by SIGINT, SIGTERM, SIGHUP or SIGQUIT (temporaries removed first):
// 128 + the signal, except `serve` and `convert --watch`, which stop with 0.
Temporaries.installInterruptCleanup()
let args = Array(CommandLine.arguments.dropFirst())
exit(StandardOutput.finish(dispatch(args)))
