#!/usr/bin/env python3
"""Converts a note folder into a site on Apache Spark, byte for byte what one
`notepress convert INPUT -o OUTPUT` writes.

usage: notepress_spark.py INPUT OUTPUT [--master URL] [--partitions N] [--notepress PATH]
                          [-- NOTEPRESS OPTIONS...]

The job (README, "Past one machine"):

1. the driver lists the inputs: `notepress scan INPUT --list -0` (ignore files, --include and
   --exclude applied once, here);
2. each partition of the list is scanned on an executor (`notepress scan --files-from - -0
   --root INPUT -o -`) and the tables' lines are unioned and sorted (byte order: merging tables
   of disjoint inputs is concatenation and sort);
3. the table is broadcast; each partition pipes its list into `notepress convert --files-from -
   -0 --root INPUT -o OUTPUT --site-table TABLE` on an executor, which writes that partition's
   pages and one manifest part (OUTPUT/.notepress-parts), never the site-wide pages;
4. the driver runs `notepress index OUTPUT --site-table TABLE`: the notes list, the link report,
   the manifest merged from the parts.

INPUT and OUTPUT must be paths every executor sees (a local folder with `local[N]`; a shared
mount such as NFS, an HDFS or S3 FUSE mount in production). Notepress writes every output as a
temporary file in the output's folder and then rename(2)s it over the output: a task that Spark
kills or retries leaves either the old file or the new one, never a partial one, and `notepress
index` removes the temporaries a killed process left. This needs a mount whose rename within a
folder is atomic (POSIX file systems, NFS, HDFS; not plain S3 object stores through a FUSE layer
that copies on rename, where a reader may see a partial object: write to a local or HDFS folder
there and copy the finished tree).

The options after `--` go to scan, convert and index alike (-t, --layout, --theme, ...): every step
must read and write as one `notepress convert` with those options would.

Test hook: with NOTEPRESS_SPARK_KILL_PARTITION=P, the first attempt of partition P kills its
notepress process (SIGKILL) as soon as it reports its first converted file, and fails the task,
so that Spark retries it; NOTEPRESS_SPARK_MARKERS=DIR records what happened there.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time


def parse_args(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description="Notepress on Apache Spark")
    p.add_argument("input")
    p.add_argument("output")
    p.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    p.add_argument("--partitions", type=int, default=None, help="partitions of the input list (default: Spark's parallelism)")
    p.add_argument("--notepress", default="notepress", help="the notepress binary every executor runs")
    a = p.parse_args(argv)
    a.options = extra
    return a


def table_file(table_bytes):
    """The broadcast table as a temporary file of this task (removed when the task ends)."""
    fd, path = tempfile.mkstemp(prefix="notepress-table-", suffix=".jsonl")
    with os.fdopen(fd, "wb") as f:
        f.write(table_bytes)
    return path


def nul_list(names):
    return b"".join(os.fsencode(n) + b"\0" for n in names)


def main(argv):
    args = parse_args(argv)
    from pyspark import TaskContext
    from pyspark.sql import SparkSession

    notepress, root, out, options = args.notepress, os.path.abspath(args.input), os.path.abspath(args.output), args.options
    seconds = {}
    clock = time.perf_counter()

    def lap(name):
        nonlocal clock
        now = time.perf_counter()
        seconds[name] = round(now - clock, 3)
        clock = now

    builder = (SparkSession.builder.appName("notepress")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    lap("start")
    try:
        # 1. The inputs, listed once on the driver.
        listed = subprocess.run([notepress, "scan", root, "--list", "-0"] + options, stdout=subprocess.PIPE, check=True).stdout
        names = [os.fsdecode(n) for n in listed.split(b"\0") if n]
        # Contiguous, even slices of the sorted list (a partition's pages share folders, so its
        # task reads and writes few of them); PySpark's own slicing goes by batches of 1024.
        n = max(1, min(args.partitions or sc.defaultParallelism, len(names)))
        slices = [names[len(names) * i // n:len(names) * (i + 1) // n] for i in range(n)]
        rdd = sc.parallelize(slices, n).flatMap(lambda s: s).cache()
        lap("list")

        # 2. Scan per partition; union; sort (tables of disjoint inputs: concatenation + sort).
        def scan_partition(it):
            data = nul_list(it)
            if not data:
                return
            r = subprocess.run([notepress, "scan", "--files-from", "-", "-0", "--root", root, "-o", "-", "-q"] + options,
                               input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if r.returncode not in (0, 1):  # 1: an input could not be read; convert reports it
                raise RuntimeError(f"notepress scan failed ({r.returncode}): {r.stderr.decode(errors='replace')}")
            yield from r.stdout.splitlines()

        lines = rdd.mapPartitions(scan_partition).collect()
        table = b"".join(line + b"\n" for line in sorted(lines))
        work = tempfile.mkdtemp(prefix="notepress-spark-")
        table_path = os.path.join(work, "site.jsonl")
        with open(table_path, "wb") as f:
            f.write(table)
        shared = sc.broadcast(table)
        lap("scan")

        # 3. Convert per partition against the broadcast table.
        kill_partition = os.environ.get("NOTEPRESS_SPARK_KILL_PARTITION")
        markers = os.environ.get("NOTEPRESS_SPARK_MARKERS")

        def convert_partition(it):
            ctx = TaskContext.get()
            part, attempt = ctx.partitionId(), ctx.attemptNumber()
            data = nul_list(it)
            if not data:
                return
            kill = kill_partition == str(part) and attempt == 0
            table_path = table_file(shared.value)
            try:
                cmd = [notepress, "convert", "--files-from", "-", "-0", "--root", root, "-o", out,
                       "--site-table", table_path, "-j", "1"] + (["-v"] if kill else ["-q"]) + options
                proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                feeder = threading.Thread(target=lambda: (proc.stdin.write(data), proc.stdin.close()))
                feeder.start()
                err = []
                killed = False
                for line in proc.stderr:
                    err.append(line)
                    if kill and not killed and line.startswith(b"converted "):
                        proc.send_signal(signal.SIGKILL)  # in the middle of the partition
                        killed = True
                rc = proc.wait()
                feeder.join()
            finally:
                os.remove(table_path)
            if kill:
                if markers:
                    with open(os.path.join(markers, f"partition-{part}-attempt-{attempt}.json"), "w") as f:
                        json.dump({"partition": part, "attempt": attempt, "returncode": rc, "killed": killed}, f)
                raise RuntimeError(f"test: notepress of partition {part} killed on attempt {attempt} (exit {rc})")
            if rc != 0:
                raise RuntimeError(f"notepress convert failed ({rc}): {b''.join(err).decode(errors='replace')}")
            yield {"partition": part, "attempt": attempt, "inputs": data.count(b"\0")}

        results = rdd.mapPartitions(convert_partition).collect()
        lap("convert")

        # 4. The site-wide pages and the manifest, on the driver.
        index = subprocess.run([notepress, "index", out, "--site-table", table_path] + options)
        os.remove(table_path)
        os.rmdir(work)
        lap("index")
        print(json.dumps({"inputs": len(names), "table_records": len(lines), "tasks": sorted(results, key=lambda r: r["partition"]),
                          "index": index.returncode, "seconds": seconds}))
        return 0 if index.returncode == 0 else 1
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
