#!/usr/bin/env bash
# Prints the engine's current figures as a Markdown table, each row with the commit it was
# measured at: the bench signature and the search speed (`gomoku bench --runs 3`), the depth
# reached in 1 s (`gomoku think`, median of 3 runs), the renju puzzles solved at 1 s each
# (`gomoku solve`: the full sets of ../shared/data/puzzles/ when that folder is there, else the
# repository's samples in crates/app/tests/data/puzzles/), and the strength against Rapfi on
# the eval openings. A match takes an hour on an idle machine, so strength is not measured here:
# it is the last record of each (rule, board, clock) in docs/figures/matches.tsv, which says how
# to add one. The measured rows carry the HEAD's short hash, with `-dirty` when tracked files
# have changes. The measuring takes five to ten minutes with ../shared, most of it the puzzles.
#
# Usage: scripts/figures.sh            build (cargo build --release), measure, print the table
#        scripts/figures.sh --write    the same, and paste the table into README.md and
#                                      docs/benchmarks.md (between their figures.sh markers)
#        scripts/figures.sh --matches  no measuring: the rows against Rapfi pasted anew from
#                                      docs/figures/matches.tsv after a match, the measured rows
#                                      kept as they are
#        scripts/figures.sh --check    no measuring: the two documents' tables agree with each
#                                      other, with docs/figures/matches.tsv and with the current
#                                      `Bench:` line (a few seconds once the release build is there)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=print
case "${1:-}" in
  "") ;;
  --write) mode=write ;;
  --check) mode=check ;;
  --matches) mode=matches ;;
  *) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac

gomoku=target/release/gomoku
matches=docs/figures/matches.tsv
docs=(README.md docs/benchmarks.md)
begin_marker='<!-- figures.sh: begin -->'
end_marker='<!-- figures.sh: end -->'

say() { echo "scripts/figures.sh: $*" >&2; }
row() { printf '| %s | %s | %s | %s | %s |\n' "$@"; }
header() {
  echo '| figure | value | commit | date | command |'
  echo '|---|---|---|---|---|'
}

# The strength rows, from the match records: freestyle, standard and renju on 15x15 at 1 s a
# move first (each "not measured" when it has no record), then the other clocks in file order.
# Checks every record on the way: its field count, openings, counts, score and Elo.
strength_rows() {
  awk -F'\t' '
    function fail(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
    function secs(ms) { return ms < 1000 ? ms " ms" : (ms % 1000 ? sprintf("%.1f", ms / 1000) : ms / 1000) " s" }
    function clock(k,   f) {
      split(k, f, SUBSEP)
      return secs(f[3]) " a move" (f[4] > 0 ? ", " f[4] " s a game" : "")
    }
    # the lines FROM and TO of an openings field FILE:FROM-TO in r[1], r[2]; 0 when it has none
    function span(openings, r,   t) {
      r[1] = r[2] = 0
      if (openings !~ /:[0-9]/) return 0
      t = openings; sub(/.*:/, "", t); split(t, r, "-")
      return 1
    }
    # "odd" or "even" for an openings field FILE:odd or FILE:even (every other line), else ""
    function parity(openings,   t) {
      if (openings !~ /:(odd|even)$/) return ""
      t = openings; sub(/.*:/, "", t)
      return t
    }
    function command(rule, board, turn, game_s, mem, openings, games,   c, size, r, file, pre) {
      size = board; sub(/x.*/, "", size)
      c = "../shared/anchors/match.sh --rule " rule
      if (size != 15) c = c " --size " size
      c = c " --turn-ms " turn
      if (game_s > 0) c = c " --match-s " game_s
      if (mem != 64) c = c " --memory-mb " mem
      pre = ""
      if (span(openings, r)) {
        if (r[1] > 1) {
          file = openings; sub(/:.*/, "", file)
          pre = "sed -n " r[1] "," r[2] "p ../shared/anchors/openings/" file " > openings.txt; "
          c = c " --openings openings.txt"
        }
        c = c " --games " 2 * (r[2] - r[1] + 1)
      } else if (parity(openings) != "") {
        file = openings; sub(/:.*/, "", file)
        pre = "awk '\''NR % 2 == " (parity(openings) == "odd" ? 1 : 0) "'\'' ../shared/anchors/openings/" file " > openings.txt; "
        c = c " --openings openings.txt --games " games
      }
      return "`" pre c "`"
    }
    function print_row(k,   f, r, kind, set, value) {
      split(rec[k], f, "\t")
      kind = f[7] ~ /piskvork/ ? "Piskvork 20x20 openings" : "eval openings"
      set = kind
      if (span(f[7], r)) set = r[1] == 1 ? "the first " r[2] " " kind : kind " " r[1] " to " r[2]
      if (parity(f[7]) != "") set = "the " parity(f[7]) "-numbered " kind
      value = sprintf("%s%% (%s-%s-%s in %s games), Elo %s (%s .. %s)",
        f[12], f[9], f[10], f[11], f[8], f[13], f[14], f[15])
      if (f[17] != "-") value = value "; " f[17]
      printf "| against Rapfi, %s %s, %s, %s MB (%s, both colours) | %s | %s | %s | %s |\n",
        f[2], f[3], clock(k), f[6], set, value, f[16], f[1],
        command(f[2], f[3], f[4], f[5], f[6], f[7], f[8])
    }
    /^#/ || /^[ \t]*$/ { next }
    !header_seen { header_seen = 1; if ($1 != "date" || NF != 17) fail("the header line of 17 fields expected"); next }
    {
      if (NF != 17) fail("17 tab-separated fields expected, not " NF)
      if ($1 !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]$/) fail("date " $1 " is not YYYY-MM-DD")
      if ($2 !~ /^(freestyle|standard|renju)$/) fail("unknown rule " $2)
      if ($3 !~ /^(15x15|20x20)$/) fail("unknown board " $3)
      if ($7 !~ /^(eval-(freestyle|renju)|freestyle20-piskvork)\.txt(:[1-9][0-9]*-[1-9][0-9]*|:odd|:even)?$/)
        fail("openings " $7 ": only the eval openings count (eval-freestyle.txt, eval-renju.txt, and freestyle20-piskvork.txt on 20x20), or some of their lines (:FROM-TO, :odd, :even)")
      if (span($7, lines) && lines[1] > lines[2]) fail("openings " $7 ": FROM after TO")
      if (($7 ~ /piskvork/) != ($3 == "20x20")) fail("openings " $7 " do not go with board " $3)
      if (($7 ~ /renju/) != ($2 == "renju")) fail("openings " $7 " do not go with rule " $2)
      if ($8 != $9 + $10 + $11) fail("games " $8 " is not wins + losses + draws")
      if ($8 <= 0 || $9 + $11 / 2 <= 0 || $10 + $11 / 2 <= 0) fail("a score of 0% or 100% has no Elo")
      p = ($9 + $11 / 2) / $8
      if ((100 * p - $12) ^ 2 > 0.0026) fail("score " $12 " is not (wins + draws/2) / games = " 100 * p)
      elo = -400 * log(1 / p - 1) / log(10)
      if ((elo - $13) ^ 2 > 1) fail("Elo " $13 " is not " sprintf("%+.1f", elo) " for a score of " $12 "%")
      if (!($14 + 0 <= $13 + 0 && $13 + 0 <= $15 + 0)) fail("Elo " $13 " outside its interval")
      if ($16 !~ /^[0-9a-f]+$/) fail("commit " $16 " is no short hash")
      k = $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
      if (!(k in rec)) order[++n] = k
      else if ($1 < date[k]) fail("an earlier date than the record before it of the same clock")
      rec[k] = $0; date[k] = $1
    }
    END {
      if (bad) exit 1
      split("freestyle standard renju", rules, " ")
      for (i = 1; i <= 3; i++) {
        k = rules[i] SUBSEP "15x15" SUBSEP 1000 SUBSEP 0
        done[k] = 1
        if (k in rec) print_row(k)
        else printf "| against Rapfi, %s 15x15, 1 s a move, 64 MB (eval openings, both colours) | not measured on the eval openings | - | - | %s |\n",
          rules[i], command(rules[i], "15x15", 1000, 0, 64, "")
      }
      for (i = 1; i <= n; i++) if (!(order[i] in done)) print_row(order[i])
    }
  ' "$matches"
}

# The table in a document: the lines between its markers.
doc_table() {
  awk -v b="$begin_marker" -v e="$end_marker" '
    $0 == e { inside = 0 } inside { print } $0 == b { inside = 1 }
  ' "$1"
}

bench_line() { "$gomoku" bench --quiet | grep '^Bench: '; }

check() {
  local expected bench doc
  expected=$(strength_rows) || exit 1
  say "release build and bench"
  cargo build --release --locked -q -p gomoku
  bench=$(bench_line)
  for doc in "${docs[@]}"; do
    local table
    table=$(doc_table "$doc")
    [ -n "$table" ] || { say "$doc: no table between '$begin_marker' and '$end_marker'"; exit 1; }
    [ "$(echo "$table" | head -n 2)" = "$(header)" ] || { say "$doc: the table's header is not the script's"; exit 1; }
    [ "$(echo "$table" | grep '^| against Rapfi')" = "$expected" ] || {
      say "$doc: the rows against Rapfi are not those of $matches; they should be:"
      echo "$expected" >&2
      exit 1
    }
    [ "$(echo "$table" | wc -l)" = $((2 + 6 + $(echo "$expected" | wc -l))) ] || {
      say "$doc: the table should have the six measured rows and $(echo "$expected" | wc -l) against Rapfi"
      exit 1
    }
    echo "$table" | grep -qF "| \`$bench\` |" || {
      say "$doc: its bench row is not the build's \`$bench\` (run scripts/figures.sh --write)"
      exit 1
    }
    [ "$table" = "$(doc_table "${docs[0]}")" ] || { say "$doc and ${docs[0]} have different tables"; exit 1; }
  done
  say "the tables of ${docs[*]} agree with $matches and \`$bench\`"
}

# One `gomoku solve` of a puzzle set: its row.
puzzle_row() {
  local kind=$1 name=$2 commit=$3 today=$4 file set out solved
  if [ -d ../shared/data/puzzles ]; then
    file=../shared/data/puzzles/renju-$name.txt
    set="the full set"
  else
    file=crates/app/tests/data/puzzles/renju-$name-sample.txt
    set="the repository's sample, no ../shared"
  fi
  say "gomoku solve $file"
  out=$("$gomoku" solve "$file")
  solved=$(echo "$out" | sed -nE 's|^solved +([0-9]+)/([0-9]+) \(([0-9.]+%)\).*|\1 / \2 (\3)|p')
  [ -n "$solved" ] || { say "no 'solved' line from gomoku solve $file"; exit 1; }
  row "renju $kind puzzles solved, 1 s each, one thread ($set)" "$solved" "$commit" "$today" \
    "\`gomoku solve $file\`"
}

measure() {
  local commit today out bench nps depths depth load cores niced speed
  say "cargo build --release --locked"
  cargo build --release --locked -q -p gomoku
  commit=$(git rev-parse --short HEAD)
  [ -z "$(git status --porcelain --untracked-files=no)" ] || commit="$commit-dirty"
  today=$(date -u +%F)
  strength_rows >/dev/null || exit 1

  say "gomoku bench --runs 3"
  read -r load _ </proc/loadavg
  cores=$(nproc)
  niced=$(ps -eo ni=,pcpu= | awk '$1 > 0 && $2 >= 25 { n++; ni = $1 } END { if (n) print ni }')
  out=$("$gomoku" bench --quiet --runs 3)
  bench=$(echo "$out" | grep '^Bench: ')
  nps=$(echo "$out" | sed -nE 's/^Nodes\/second *: *([0-9]+).*/\1/p')
  speed="$(awk -v n="$nps" 'BEGIN { printf "%.2f", n / 1e6 }') M nodes/s (median of 3 runs; load $load on $cores cores"
  [ -z "$niced" ] || speed="$speed, a background job at nice $niced"
  speed="$speed)"

  say "gomoku think --time-ms 1000 h8 i9, 3 times"
  depths=$(for _ in 1 2 3; do
    "$gomoku" think --time-ms 1000 h8 i9 | awk '/^bestmove/ { for (i = 1; i < NF; i++) if ($i == "depth") print $(i + 1) }'
  done | sort -n)
  [ "$(echo "$depths" | wc -l)" = 3 ] || { say "no depth from gomoku think"; exit 1; }
  depth=$(echo "$depths" | sed -n 2p)

  header
  row "bench signature: the nodes of the bench's fixed searches (deterministic)" "\`$bench\`" \
    "$commit" "$today" '`gomoku bench`'
  row "search speed, one thread" "$speed" "$commit" "$today" '`gomoku bench --runs 3`'
  row "depth reached in 1 s, freestyle, after \`h8 i9\`" "$depth (median of 3 runs)" "$commit" \
    "$today" '`gomoku think --time-ms 1000 h8 i9`'
  puzzle_row VCF vcf "$commit" "$today"
  puzzle_row VCT vct "$commit" "$today"
  puzzle_row win-in-3 win_in_3 "$commit" "$today"
  strength_rows
}

# Replaces the lines between the markers of each document with the table.
write() {
  local table=$1 doc
  for doc in "${docs[@]}"; do
    grep -qxF "$begin_marker" "$doc" && grep -qxF "$end_marker" "$doc" ||
      { say "$doc: no markers '$begin_marker' / '$end_marker'"; exit 1; }
    table=$table awk -v b="$begin_marker" -v e="$end_marker" '
      $0 == e { inside = 0 } !inside { print } $0 == b { inside = 1; print ENVIRON["table"] }
    ' "$doc" >"$doc.tmp"
    mv "$doc.tmp" "$doc"
    say "$doc: table written"
  done
}

# The table with the measured rows of the README's as they are and the rows against Rapfi anew.
matches_table() {
  local strength
  strength=$(strength_rows) || exit 1
  doc_table "${docs[0]}" | grep -v '^| against Rapfi'
  echo "$strength"
}

case $mode in
  check) check ;;
  matches) table=$(matches_table); echo "$table"; write "$table" ;;
  print) measure ;;
  write) table=$(measure); echo "$table"; write "$table" ;;
esac
