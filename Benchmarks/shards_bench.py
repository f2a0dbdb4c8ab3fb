"""The "Past one machine" tables of Benchmarks/run (issue 20): a 20 000-note site converted by one
process (-j 2), by Apache Spark local[2] (examples/spark/notepress_spark.py) and by N = 1, 2, 4, 8
shards run one after another (scan, each shard at -j 1, index), and the merge (`notepress index`)
at two sizes. Every figure is one run's wall time (time.perf_counter around the process); each
sharded result is checked byte for byte against the one-process site.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

ENV = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")


PEAK = {}  # the last run's peak resident set (KiB) by command word


def run(cmd, **kw):
    """Runs `cmd` through /usr/bin/time; returns (wall seconds, standard output). Its peak
    resident set (KiB, the kernel's ru_maxrss) raises PEAK[cmd[1]] (`scan`, `convert`, `index`)."""
    log = os.path.join(os.path.dirname(os.path.abspath(__file__)), "work", "shards-time.out")
    t0 = time.perf_counter()
    r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", log] + cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.decode(errors='replace')[-2000:]}")
    PEAK[cmd[1]] = max(PEAK.get(cmd[1], 0), int(open(log).read().split()[-1]))
    return t, r.stdout


def tree_digest(folder):
    """SHA-256 over every file (path and bytes), the manifest's output times blanked (README,
    "Past one machine": what identical means for the manifest)."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in sorted(os.walk(folder)):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, folder)
            data = open(path, "rb").read()
            if rel == ".notepress-manifest":
                lines = []
                for line in data.split(b"\n"):
                    f = line.split(b"\t")
                    if f[0] in (b"O", b"I", b"A", b"G") and len(f) >= 5:
                        f[4] = b"-"
                    lines.append(b"\t".join(f))
                data = b"\n".join(lines)
            h.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def site(work, bench, count):
    """WORK/site-N from Benchmarks/make-site (regenerated when the generator changes)."""
    maker = os.path.join(bench, "make-site")
    folder = os.path.join(work, f"site-{count}")
    stamp = folder + ".stamp"
    key = hashlib.sha256(open(maker, "rb").read()).hexdigest()
    if not (os.path.isdir(folder) and os.path.exists(stamp) and open(stamp).read() == key):
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, maker, folder, "--count", str(count)], check=True)
        open(stamp, "w").write(key)
    return folder


def sharded(notepress, folder, out, table, n, jobs_scan=2):
    """scan, then shards 1..n one after another at -j 1, then index: (scan s, [shard s], index s)."""
    shutil.rmtree(out, ignore_errors=True)
    PEAK.clear()
    scan, _ = run([notepress, "scan", folder, "-o", table, "-q", "-j", str(jobs_scan)])
    shards = [run([notepress, "convert", folder, "-o", out, "--site-table", table, "--shard", f"{k}/{n}", "-j", "1", "-q"])[0]
              for k in range(1, n + 1)]
    index, _ = run([notepress, "index", out, "--site-table", table, "-q"])
    return scan, shards, index


def shards_section(p, log, notepress, root, work, bench):
    """Writes the tables with `p(line)`; returns a dict of the figures for Benchmarks/README.md."""
    log("past one machine (issue 20): 20 000-note site, one process vs Spark vs shards")
    big = site(work, bench, 20000)
    small = site(work, bench, 5000)
    pages = sum(1 for _, _, fs in os.walk(big) for f in fs if f.endswith((".md", ".note")))
    # Outputs in memory when /dev/shm exists (see README: ext4's allocator after mass deletes).
    outs = "/dev/shm/notepress-shards-bench" if os.path.isdir("/dev/shm") else work
    os.makedirs(outs, exist_ok=True)
    one = os.path.join(outs, "one")
    shutil.rmtree(one, ignore_errors=True)
    t_one, _ = run([notepress, "convert", big, "-o", one, "-q", "-j", "2"])
    reference = tree_digest(one)
    shutil.rmtree(one, ignore_errors=True)
    log(f"  one process -j 2: {t_one:.1f} s")

    spark = os.path.join(outs, "spark")
    shutil.rmtree(spark, ignore_errors=True)
    script = os.path.join(root, "examples", "spark", "notepress_spark.py")
    env = dict(ENV, SPARK_LOCAL_IP="127.0.0.1", PYSPARK_PYTHON=sys.executable,
               PYSPARK_SUBMIT_ARGS="--driver-memory 1g pyspark-shell")
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, script, big, spark, "--master", "local[2]", "--partitions", "8", "--notepress", notepress],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t_spark = time.perf_counter() - t0
    spark_ok = r.returncode == 0
    phases = json.loads(r.stdout.decode().strip().splitlines()[-1])["seconds"] if spark_ok else {}
    spark_same = spark_ok and tree_digest(spark) == reference
    log(f"  Spark local[2]: {t_spark:.1f} s ({phases})")

    p("## Past one machine: sharded sites (issue 20)")
    p()
    p(f"A site of {pages} notes from `Benchmarks/make-site --count 20000` (Markdown and note markup, links, "
      "wiki links, images), HTML. One run each (wall time, seconds); every sharded result is compared with "
      "the one-process site, file by file (the manifest's output times blanked).")
    p()
    p("| run | wall s | notes/s | vs one process | same bytes |")
    p("|---|---:|---:|---:|---|")
    p(f"| one process `convert -j 2` | {t_one:.1f} | {pages / t_one:.0f} | 1.00× | (reference) |")
    p(f"| Spark `local[2]`, 8 partitions | {t_spark:.1f} | {pages / t_spark:.0f} | {t_spark / t_one:.2f}× | "
      f"{'yes' if spark_same else '**no**' if spark_ok else 'failed: ' + r.stderr.decode(errors='replace')[-200:]} |")
    p()
    if phases:
        p("Spark phases (s): " + ", ".join(f"{k} {v:.1f}" for k, v in phases.items())
          + " (start: the JVM and the session; list: `scan --list` on the driver; scan: per partition, union, sort, "
            "broadcast; convert: per partition; index: on the driver).")
        p()

    p("Shards run one after another on one core each (`--shard K/N -j 1`), after one `scan -j 2`, "
      "then `index` (the merge):")
    p()
    p("| N | scan s | shard s (min / median / max) | shards total s | index s | notes/s per core | same bytes |")
    p("|---:|---:|---|---:|---:|---:|---|")
    peaks = {}
    figures = {"pages": pages, "one": t_one, "spark": t_spark, "spark_phases": phases}
    per_core = []
    for n in (1, 2, 4, 8):
        out = os.path.join(outs, f"shards-{n}")
        scan, shards, index = sharded(notepress, big, out, os.path.join(work, f"table-{n}.jsonl"), n)
        same = tree_digest(out) == reference
        s = sorted(shards)
        rate = pages / sum(shards)
        per_core.append(rate)
        figures[f"n{n}"] = {"scan": scan, "shards": shards, "index": index}
        peaks[n] = dict(PEAK)
        p(f"| {n} | {scan:.1f} | {s[0]:.2f} / {s[len(s) // 2]:.2f} / {s[-1]:.2f} | {sum(shards):.1f} | {index:.2f} | "
          f"{rate:.0f} | {'yes' if same else '**no**'} |")
        log(f"  N={n}: scan {scan:.1f} s, shards {sum(shards):.1f} s, index {index:.2f} s, same={same}")
        shutil.rmtree(out, ignore_errors=True)
    p()
    p("Peak resident memory per process (MiB, the largest of each kind in that row): "
      + "; ".join(f"after N={n}: " + ", ".join(f"{k} {v / 1024:.0f}" for k, v in peaks[n].items()) for n in peaks) + ".")
    p()
    figures["peaks"] = peaks
    # The merge at two sizes (4 parts each).
    merges = {}
    for count, folder in ((5000, small), (20000, big)):
        out = os.path.join(outs, f"merge-{count}")
        _, _, index = sharded(notepress, folder, out, os.path.join(work, f"merge-{count}.jsonl"), 4)
        merges[count] = index
        shutil.rmtree(out, ignore_errors=True)
    p("The merge (`notepress index`: resolve every page's links, link report, notes list, manifest parts) "
      "after 4 shards:")
    p()
    p("| notes | index s | µs per note |")
    p("|---:|---:|---:|")
    for count, t in merges.items():
        p(f"| {count} | {t:.2f} | {1e6 * t / count:.0f} |")
    p()
    p(f"20 000 / 5 000 notes: merge time ×{merges[20000] / merges[5000]:.2f} for ×4 inputs (linear: ×4).")
    p()
    figures["merges"] = merges
    figures["per_core"] = per_core
    shutil.rmtree(spark, ignore_errors=True)
    shutil.rmtree(outs, ignore_errors=True)
    return figures
