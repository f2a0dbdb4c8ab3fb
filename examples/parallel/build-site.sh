#!/bin/sh
# A site in N shards with GNU parallel: build-site.sh NOTES SITE N [NOTEPRESS OPTIONS...]
set -eu
in=$1 out=$2 n=$3; shift 3
notepress scan "$in" -o "$out.jsonl" "$@"
seq "$n" | parallel --will-cite --halt now,fail=1 notepress convert "$in" -o "$out" --site-table "$out.jsonl" --shard {}/"$n" -j 1 -q "$@"
notepress index "$out" --site-table "$out.jsonl" "$@"
