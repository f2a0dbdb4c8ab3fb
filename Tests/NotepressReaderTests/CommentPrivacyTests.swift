import Foundation
import XCTest
import NotepressTestSupport

/// `%%comments%%` are private: their text reaches no output, whatever they hold.
final class CommentPrivacyTests: XCTestCase {
    /// Issue 52 item 5: a comment holding a blank line was taken as unclosed, so its text was
    /// published, and so was every later `%%secret%%` of the note, in every format.
    func testACommentWithABlankLineAndEveryLaterCommentStayPrivate() throws {
        let note = """
        # Diary

        Public opening.

        %%private first paragraph

        private second paragraph%%

        Public middle with %%inline secret%% inside.

        %%
        block secret
        %%

        Public end.

        """
        let (input, output, _) = try makeSiteFolder(self, ["diary.md": note])
        let r = try NotepressBinary.run(["convert", input, "-o", output, "-t", "html,ansi,rtf,man,tei,json", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for ext in ["html", "ans", "rtf", "man", "xml", "json"] {
            let text = try String(contentsOfFile: output + "/diary." + ext, encoding: .utf8)
            for secret in ["private first", "private second", "inline secret", "block secret", "%%"] {
                XCTAssertFalse(text.contains(secret), "“\(secret)” published in diary.\(ext)")
            }
            for shown in ["Public opening.", "Public middle with", "Public end."] {
                XCTAssertTrue(text.contains(shown), "“\(shown)” missing from diary.\(ext)")
            }
        }
    }
}
