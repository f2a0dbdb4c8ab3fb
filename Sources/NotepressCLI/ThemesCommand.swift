import Foundation

// Placeholder written by the lead so the dispatcher links; the themes engineer replaces this file.
func runThemesCommand(_ args: [String]) -> Int32 {
    printError("notepress themes: not available yet")
    return 2
}
