#!/bin/sh
# Makes the 10 notification sounds (spec 4) in frontend/public/sounds: short sine chimes, each a different pair or
# run of notes, fading out; mono MP3 at 32 kbit/s, a few KB each. Run from anywhere: sh frontend/scripts/make-notification-sounds.sh
set -eu
out="$(dirname "$0")/../public/sounds"
mkdir -p "$out"

# A note: frequency $1 Hz starting at $2 s, decaying at rate $3; a soft octave partial gives it a bell's ring.
note() { echo "between(t,$2,9)*exp(-$3*(t-$2))*(0.55*sin(2*PI*$1*(t-$2))+0.12*sin(4*PI*$1*(t-$2)))"; }

i=0
# name: duration; notes (Hz) with start times
for spec in \
  "0.55|$(note 880 0 7)+$(note 1318.5 0.12 7)" \
  "0.55|$(note 659.3 0 7)+$(note 987.8 0.12 7)" \
  "0.6|$(note 523.3 0 6)+$(note 659.3 0.1 6)+$(note 784 0.2 6)" \
  "0.6|$(note 784 0 6)+$(note 659.3 0.1 6)+$(note 523.3 0.2 6)" \
  "0.45|$(note 1046.5 0 9)" \
  "0.5|$(note 587.3 0 8)+$(note 880 0.08 8)" \
  "0.7|$(note 698.5 0 5)+$(note 1046.5 0.15 5)" \
  "0.5|$(note 1174.7 0 9)+$(note 1174.7 0.14 9)" \
  "0.65|$(note 440 0 6)+$(note 554.4 0.09 6)+$(note 659.3 0.18 6)+$(note 880 0.27 6)" \
  "0.55|$(note 987.8 0 7)+$(note 740 0.12 7)"; do
  i=$((i + 1))
  duration="${spec%%|*}"
  expression="${spec#*|}"
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "aevalsrc=exprs='0.7*($expression)*min(1,(${duration}-t)*20)':s=22050:d=${duration}" \
    -ac 1 -c:a libmp3lame -b:a 32k -map_metadata -1 -write_xing 0 "$out/notification-$i.mp3"
done
ls -l "$out"
