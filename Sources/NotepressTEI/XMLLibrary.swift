import CLibXML2

/// The version of libxml2 the TEI writer and validator run with, from the library at run time.
package enum XMLLibrary {
    /// libxml2's `xmlParserVersion` ("21004") as a dotted version: "2.10.4". (A macro over
    /// `__xmlParserVersion()` in threaded builds, which Swift cannot import.)
    package static var version: String {
        guard let p = __xmlParserVersion()?.pointee, let n = Int(String(cString: p)) else { return "unknown" }
        return "\(n / 10000).\(n / 100 % 100).\(n % 100)"
    }
}
