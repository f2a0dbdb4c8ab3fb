import Foundation
import XCTest
import NotepressTestSupport

/// Issue 20: `examples/spark/notepress_spark.py` on Apache Spark (`local[2]`, PySpark from PyPI,
/// OpenJDK 17 from Debian: `make test` installs both) writes the bytes of one `notepress convert`,
/// and a task whose notepress process is killed and retried by Spark leaves no partial file.
final class SparkTests: XCTestCase {
    /// 5 000 generated notes (`Benchmarks/make-site`) with `../shared/corpus/vault-foam` as the
    /// folder `vault/`, four partitions on `local[2,2]` (two cores, a task may fail twice), the
    /// first attempt of partition 1 killed (SIGKILL) after its first converted file. 75 s alone
    /// with the debug binary on two cores (150 s inside the whole suite on a loaded machine): the
    /// JVM's start, the one-process reference run and the debug binary take most of it.
    func testSparkSiteIsByteIdenticalToOneProcessAndSurvivesAKilledTask() throws {
        let check = try runTool("python3", ["-c", "import pyspark; print(pyspark.__version__)"])
        XCTAssertEqual(check.status, 0, "PySpark is missing (make test installs it from .ci/pip-packages): \(check.output)")
        guard check.status == 0 else { return }
        let tmp = try makeTempDir(self)
        let site = tmp.appendingPathComponent("site")
        try ShardTests.makeSite(site, count: 5000)
        try FileManager.default.copyItem(at: TestPaths.corpus.appendingPathComponent("vault-foam"), to: site.appendingPathComponent("vault"))
        _ = try runTool("chmod", ["-R", "u+w", site.path])
        let one = tmp.appendingPathComponent("one")
        let r = try NotepressBinary.run(["convert", site.path, "-o", one.path, "-q"], environment: ShardTests.epoch)
        XCTAssertEqual(r.status, 0, r.stderr)

        let out = tmp.appendingPathComponent("spark")
        let markers = tmp.appendingPathComponent("markers")
        try FileManager.default.createDirectory(at: markers, withIntermediateDirectories: true)
        let script = TestPaths.root.appendingPathComponent("examples/spark/notepress_spark.py").path
        let report = tmp.appendingPathComponent("report.json")
        let log = tmp.appendingPathComponent("spark.log")
        let command = """
            export SOURCE_DATE_EPOCH=1700000000 NOTEPRESS_SPARK_KILL_PARTITION=1 NOTEPRESS_SPARK_MARKERS='\(markers.path)' \
            SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON=python3 PYSPARK_SUBMIT_ARGS='--driver-memory 768m pyspark-shell'
            python3 '\(script)' '\(site.path)' '\(out.path)' --master 'local[2,2]' --partitions 4 \
              --notepress '\(NotepressBinary.url.path)' > '\(report.path)' 2> '\(log.path)'
            """
        let spark = try runTool("sh", ["-c", command])
        let logText = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(spark.status, 0, String(logText.suffix(4000)))
        guard spark.status == 0 else { return }

        // The driver's report: every input listed and scanned; partition 1 finished on its
        // second attempt, the others on their first.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        XCTAssertEqual(json["inputs"] as? Int, 5112)  // 5 000 notes, 4 READMEs, 8 images; vault-foam's 100 files
        XCTAssertEqual(json["table_records"] as? Int, 5112)
        XCTAssertEqual(json["index"] as? Int, 0)
        let tasks = json["tasks"] as! [[String: Any]]
        XCTAssertEqual(tasks.map { $0["partition"] as! Int }, [0, 1, 2, 3])
        XCTAssertEqual(tasks.map { $0["attempt"] as! Int }, [0, 1, 0, 0])
        XCTAssertEqual(tasks.map { $0["inputs"] as! Int }.reduce(0, +), 5112)
        // The first attempt was killed in the middle of its partition, not after it.
        let marker = try JSONSerialization.jsonObject(with: Data(contentsOf: markers.appendingPathComponent("partition-1-attempt-0.json"))) as! [String: Any]
        XCTAssertEqual(marker["returncode"] as? Int, -9)
        XCTAssertEqual(marker["killed"] as? Bool, true)

        // Byte for byte the one-process site; no temporary file, no manifest part left.
        let expected = try ShardTests.tree(one)
        let got = try ShardTests.tree(out)
        XCTAssertEqual(got.keys.filter { $0.contains(".tmp-") || $0.hasPrefix(".notepress-parts") }, [])
        XCTAssertEqual(got.keys.sorted(), expected.keys.sorted())
        XCTAssertGreaterThan(expected.count, 5000)
        var differing: [String] = []
        for (k, v) in expected where got[k] != v { differing.append(k) }
        XCTAssertEqual(differing.sorted(), [])
    }
}
