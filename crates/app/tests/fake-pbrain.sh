#!/bin/sh
# A tiny pbrain engine for the `gomoku match` tests: plays the first empty point in board order
# (legal), or misbehaves on purpose.
# Usage: fake-pbrain.sh legal|illegal|timeout|crash|garbage|flood
mode="$1"
size=15
occ=" "
last="0,0"
inboard=0

# the first empty point, row by row from the top
pick() {
  y=0
  while [ "$y" -lt "$size" ]; do
    x=0
    while [ "$x" -lt "$size" ]; do
      case "$occ" in
        *" $x,$y "*) ;;
        *) occ="$occ$x,$y "; echo "$x,$y"; return ;;
      esac
      x=$((x + 1))
    done
    y=$((y + 1))
  done
}

reply() {
  echo "MESSAGE fake engine in mode $mode"
  echo "DEBUG thinking"
  case "$mode" in
    legal) pick ;;
    illegal) echo "$last" ;;          # an occupied point (or 0,0 on an empty board, then again)
    timeout) ;;                       # never answers
    crash) exit 3 ;;
    garbage) echo "hello there" ;;
    flood) printf 'x%0200000d\n' 0 ;;  # a 200 kB line that is no move
  esac
}

cr=$(printf '\r')
while IFS= read -r line; do
  line=${line%"$cr"}
  set -- $line
  case "$1" in
    START) size=$2; occ=" "; echo OK ;;
    INFO|RESTART) ;;
    BEGIN) reply ;;
    BOARD) inboard=1 ;;
    DONE) inboard=0; reply ;;
    TURN) occ="$occ$2 "; last=$2; reply ;;
    END) exit 0 ;;
    ABOUT) echo 'name="fake", version="1"' ;;
    *)
      if [ "$inboard" = 1 ]; then
        p=${1%,*}
        occ="$occ$p "
        last=$p
      fi
      ;;
  esac
done
