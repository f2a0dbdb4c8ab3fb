import Foundation
import XCTest
import NotepressTestSupport
@testable import Notepress
@testable import NotepressSite

/// Issue 20: the README's recipes for sharded runs (examples/parallel, examples/kubernetes,
/// examples/make), each shown verbatim in the README and run here once, against one process.
final class ShardRecipeTests: XCTestCase {
    let examples = TestPaths.root.appendingPathComponent("examples")
    var binFolder: String { NotepressBinary.url.deletingLastPathComponent().path }

    /// A small generated site and the tree one `notepress convert` makes of it.
    func site() throws -> (tmp: URL, notes: URL, expected: [String: Data]) {
        let tmp = try makeTempDir(self)
        let notes = tmp.appendingPathComponent("notes")
        try ShardTests.makeSite(notes, count: 120)
        let one = tmp.appendingPathComponent("one")
        let r = try NotepressBinary.run(["convert", notes.path, "-o", one.path, "-q"], environment: ShardTests.epoch)
        XCTAssertEqual(r.status, 0, r.stderr)
        return (tmp, notes, try ShardTests.tree(one))
    }

    func sh(_ script: String, in dir: URL) throws -> (status: Int32, output: String) {
        try runTool("sh", ["-c", "cd '\(dir.path)' && export PATH='\(binFolder)':\"$PATH\" SOURCE_DATE_EPOCH=1700000000 && " + script])
    }

    /// Fails with the paths that differ (not the trees' bytes).
    func assertSameTree(_ dir: URL, _ expected: [String: Data], file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try ShardTests.tree(dir)
        XCTAssertEqual(got.keys.sorted(), expected.keys.sorted(), file: file, line: line)
        XCTAssertEqual(expected.keys.filter { got[$0] != expected[$0] }.sorted(), [], "files that differ", file: file, line: line)
    }

    func readme() throws -> String { try String(contentsOf: TestPaths.root.appendingPathComponent("README.md"), encoding: .utf8) }

    func testGNUParallelRecipe() throws {
        let script = examples.appendingPathComponent("parallel/build-site.sh")
        XCTAssertTrue(try readme().contains(try String(contentsOf: script, encoding: .utf8)), "README shows examples/parallel/build-site.sh")
        let (tmp, notes, expected) = try site()
        let r = try sh("'\(script.path)' '\(notes.path)' site 3", in: tmp)
        XCTAssertEqual(r.status, 0, r.output)
        try assertSameTree(tmp.appendingPathComponent("site"), expected)
    }

    /// The Indexed Job's YAML parses (PyYAML) into the Job the README describes, and its command
    /// run once per JOB_COMPLETION_INDEX (0 ... completions-1), then index, makes the one-process site.
    func testKubernetesIndexedJobRecipe() throws {
        let yaml = examples.appendingPathComponent("kubernetes/notepress-shards.yaml")
        XCTAssertTrue(try readme().contains(try String(contentsOf: yaml, encoding: .utf8)), "README shows the Job")
        let parse = try runTool("python3", ["-c", """
            import json, sys, yaml
            job = yaml.safe_load(open(sys.argv[1]))
            c = job["spec"]["template"]["spec"]["containers"][0]
            print(json.dumps({"kind": job["kind"], "api": job["apiVersion"], "mode": job["spec"]["completionMode"],
                              "completions": job["spec"]["completions"], "restart": job["spec"]["template"]["spec"]["restartPolicy"],
                              "command": c["command"], "args": c["args"], "mount": c["volumeMounts"][0]["mountPath"]}))
            """, yaml.path])
        XCTAssertEqual(parse.status, 0, parse.output)
        let job = try JSONSerialization.jsonObject(with: Data(parse.output.utf8)) as! [String: Any]
        XCTAssertEqual(job["kind"] as? String, "Job")
        XCTAssertEqual(job["api"] as? String, "batch/v1")
        XCTAssertEqual(job["mode"] as? String, "Indexed")
        XCTAssertEqual(job["completions"] as? Int, 8)
        XCTAssertEqual(job["restart"] as? String, "Never")
        XCTAssertEqual(job["command"] as? [String], ["sh", "-c"])
        XCTAssertEqual(job["mount"] as? String, "/data")
        let args = job["args"] as! [String]
        XCTAssertEqual(args.count, 1)
        XCTAssertTrue(args[0].contains("--shard $((JOB_COMPLETION_INDEX+1))/8"), args[0])

        let (tmp, notes, expected) = try site()
        let data = tmp.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: notes, to: data.appendingPathComponent("notes"))
        let command = args[0].replacingOccurrences(of: "/data/", with: data.path + "/")
        var r = try sh("notepress scan '\(data.path)/notes' -o '\(data.path)/site.jsonl'", in: tmp)
        XCTAssertEqual(r.status, 0, r.output)
        for index in 0..<8 {
            r = try runTool("env", ["JOB_COMPLETION_INDEX=\(index)", "PATH=\(binFolder):/usr/bin:/bin", "SOURCE_DATE_EPOCH=1700000000",
                                    "sh", "-c", command])
            XCTAssertEqual(r.status, 0, r.output)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data.path + "/site/.notepress-parts").count, 8)
        r = try sh("notepress index '\(data.path)/site' --site-table '\(data.path)/site.jsonl' -q", in: tmp)
        XCTAssertEqual(r.status, 0, r.output)
        try assertSameTree(data.appendingPathComponent("site"), expected)
    }

    /// make with the shards' depfiles: a first build, then a change to one note re-runs its shard
    /// alone, and the site is again the one-process site of the changed folder.
    func testMakeRecipeWithDepfiles() throws {
        let makefile = examples.appendingPathComponent("make/Makefile")
        XCTAssertTrue(try readme().contains(try String(contentsOf: makefile, encoding: .utf8)), "README shows examples/make/Makefile")
        let (tmp, notes, expected) = try site()
        let make = "make -f '\(makefile.path)' NOTES=notes SITE=site N=3 NOTEPRESS='\(NotepressBinary.url.path)'"
        var r = try sh(make, in: tmp)
        XCTAssertEqual(r.status, 0, r.output)
        try assertSameTree(tmp.appendingPathComponent("site"), expected)
        // Nothing changed: nothing runs but the scan.
        r = try sh(make, in: tmp)
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertFalse(r.output.contains("--shard"), r.output)
        XCTAssertFalse(r.output.contains(" index "), r.output)
        // One note's text changes (not its links or headings: the table stays the same).
        let rel = "f00/note-00007.md"
        sleep(1)
        let handle = try FileHandle(forWritingTo: notes.appendingPathComponent(rel))
        handle.seekToEndOfFile()
        handle.write(Data("\nOne more line.\n".utf8))
        try handle.close()
        r = try sh(make, in: tmp)
        XCTAssertEqual(r.status, 0, r.output)
        let shard = SiteShard.of(rel, count: 3)
        XCTAssertEqual(r.output.components(separatedBy: "--shard").count - 1, 1, r.output)
        XCTAssertTrue(r.output.contains("--shard \(shard)/3"), r.output)
        let again = tmp.appendingPathComponent("again")
        let one = try NotepressBinary.run(["convert", notes.path, "-o", again.path, "-q"], environment: ShardTests.epoch)
        XCTAssertEqual(one.status, 0, one.stderr)
        let changed = try ShardTests.tree(again)
        XCTAssertNotEqual(changed, expected)
        try assertSameTree(tmp.appendingPathComponent("site"), changed)
    }
}
