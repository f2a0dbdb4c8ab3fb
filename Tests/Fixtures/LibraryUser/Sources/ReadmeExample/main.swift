// Replaced by the README's first library example when the test runs.
import Notepress

print(try Notepress.convert("*Hello*", from: .gfm, to: .html).text)
