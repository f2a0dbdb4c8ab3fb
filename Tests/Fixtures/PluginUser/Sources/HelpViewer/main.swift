// Prints the help pages NotepressBuildPlugin made from Help/ at build time (bundled resources).
import Foundation

for name in CommandLine.arguments.dropFirst() {
    guard let url = Bundle.module.url(forResource: name, withExtension: "html"),
          let page = try? String(contentsOf: url, encoding: .utf8) else {
        print("missing: \(name).html")
        exit(1)
    }
    print("== \(name).html")
    print(page)
}
