#!/usr/bin/env bash
# The PCIe model against pcie-bench's measured DMA sweeps (NFP-6000, Gen3 x8; bench/data/pcie-bench, the
# vendored github.com/pcie-bench/data, commit b2abf2f). First the three hosts of the fit (section 6 of
# doc/model.md), then bench/model-bands.sh: the band over every sweep of all 21 runs. Prints, per host, test and transfer size,
# the measured Gbit/s, the model's and the relative error, then the median |error| at >= 256 B and
# at 64 B -- for the link alone (profile `simple`: no device limits) and with the device profile
# (`nfp6000-pciebench`: device limits calibrated at 64 B, and the write engine's 128 B units).
# Usage: bench/model-calibration.sh [PCIBW_EXE]   (default: build/pcibw)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-${PCIBW_EXE:-$here/build/pcibw}}
data=${PCIBW_BENCH_DATA:-$here/bench/data/pcie-bench}
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$here/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# host file-tag and its negotiated MPS (sys-lspci.txt of each github.com/pcie-bench/data directory)
hosts="hsw-e5-2620v3-dell-t630:256:nfp6000-1.2GHz_hsw-Xeon-E5-2620v3_dell-t630
ivb-e5-2620v2-dell-t620:256:nfp6000-1.2GHz_ib-Xeon-E5-2620v2_dell-t620-s0-s0-s0
hsw-e3-1226v3-fujitsu-tx1310:128:nfp6000-1.2GHz_hsw-Xeon-E3-1226v3_fujitsu-tx1310"

for h in $hosts; do
  tag=${h%%:*}; rest=${h#*:}; mps=${rest%%:*}
  csv=$data/${rest#*:}/bw_dma_sz_sweep.csv
  for t in RD:dma-read WR:dma-write RW:dma-rw; do
    test=${t%%:*}; pat=${t##*:}
    # dma_offset=pciebench is that placement with host offset 0 and an 8 KB window
    grep "^BW_DMA_$test," "$csv" | awk -F, '$4 != 0 || $6 != 8192 { print FILENAME ": not offset 0, window 8192: " $0 > "/dev/stderr"; exit 1 }' FILENAME="$csv"
    grep "^BW_DMA_$test," "$csv" | awk -F, '{print $7, $12}' > "$tmp/meas"
    sizes=$(awk '{printf "%s%s", (NR>1?",":""), $1}' "$tmp/meas")
    for nic in simple nfp6000-pciebench compat rcb aligned; do
      # every transfer where pcie-bench put it: at a random multiple of roundup64(size) in the
      # 8 KB window (column WinSZ), none across 4 KB (pciebench-nfp me/utils.c, dma_addr_init)
      prof=$nic; extra=; bus="gen3x8,mps=$mps,mrrs=512,dma_offset=pciebench"
      # pcie-model knows no buffer placement
      if [ "$nic" = compat ]; then prof=nfp6000-pciebench; extra="--compat pcie-bench"; bus="gen3x8,mps=$mps,mrrs=512"; fi
      # aligned: every transfer page-aligned, as the model assumes without dma_offset
      if [ "$nic" = aligned ]; then prof=nfp6000-pciebench; bus="gen3x8,mps=$mps,mrrs=512"; fi
      # rcb: every read completion RCB-sized (64 B), the lower bound a root complex that never
      # coalesces completions gives (doc/model.md "Calibration")
      if [ "$nic" = rcb ]; then prof=nfp6000-pciebench; bus="$bus,rcb_chunks"; fi
      # shellcheck disable=SC2086
      "$exe" model --bus "$bus" --nic "$prof" $extra --pattern "$pat" --size-is dma \
        --sizes "$sizes" --format csv | awk -F, 'NR>1 {print $1, $3}' > "$tmp/model"
      paste -d' ' "$tmp/meas" "$tmp/model" | awk -v host="$tag" -v mps="$mps" -v test="$test" -v nic="$nic" \
        '{ if ($1 != $3) { print "size mismatch" > "/dev/stderr"; exit 1 }
           printf "%s %s %s %s %d %.3f %.3f %+.2f\n", host, mps, test, nic, $1, $2, $4, ($4 - $2) / $2 * 100 }'
    done
  done
done > "$tmp/all"

printf '%-30s %4s %-3s %-18s %6s %9s %9s %8s\n' host mps test profile size measured model error%
sort -k1,1 -k3,3 -k4,4 -k5,5n "$tmp/all" | awk '{printf "%-30s %4s %-3s %-18s %6d %9.3f %9.3f %8s\n", $1,$2,$3,$4,$5,$6,$7,$8}'

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "n/a"; exit} m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.2f%% (n=%d)\n", m, NR}'; }
abs='{x=$8; if (x<0) x=-x; print x}'
echo
echo "median |error| (model vs measured):"
for nic in simple nfp6000-pciebench; do
  for sel in "RD WR" "RW"; do
    echo "  profile $nic, tests $sel:"
    printf '    MPS 256 hosts, >= 256 B, all sizes:        '
    awk -v nic=$nic -v sel="$sel" 'index(sel,$3) && $4==nic && $2==256 && $5>=256' "$tmp/all" | awk "$abs" | median
    printf '    MPS 256 hosts, >= 256 B, multiples of 64:  '
    awk -v nic=$nic -v sel="$sel" 'index(sel,$3) && $4==nic && $2==256 && $5>=256 && $5%64==0' "$tmp/all" | awk "$abs" | median
    printf '    MPS 256 hosts, 256 512 1024 1536 2048 B:   '
    awk -v nic=$nic -v sel="$sel" 'index(sel,$3) && $4==nic && $2==256 && ($5==256||$5==512||$5==1024||$5==1536||$5==2048)' "$tmp/all" | awk "$abs" | median
    printf '    MPS 256 hosts, 64 B:                       '
    awk -v nic=$nic -v sel="$sel" 'index(sel,$3) && $4==nic && $2==256 && $5==64' "$tmp/all" | awk "$abs" | median
    printf '    MPS 256 hosts, 128 B:                      '
    awk -v nic=$nic -v sel="$sel" 'index(sel,$3) && $4==nic && $2==256 && $5==128' "$tmp/all" | awk "$abs" | median
    printf '    MPS 128 host (Fujitsu), >= 256 B:          '
    awk -v nic=$nic -v sel="$sel" 'index(sel,$3) && $4==nic && $2==128 && $5>=256 && $5%64==0' "$tmp/all" | awk "$abs" | median
  done
done

# The calibration table of doc/model.md: median |error| per size band and test, MPS 256 hosts
# (default mode with nfp6000-pciebench, and --compat pcie-bench), then the MPS 128 host.
band() { awk -v lo="$1" -v hi="$2" -v nic="$3" -v sel="$4" -v mps="$5" \
  'index(sel,$3) && $4==nic && $2==mps && $5>=lo && $5<=hi' "$tmp/all" | awk "$abs" | median; }
echo
echo "calibration table (median |error|, MPS 256 hosts unless marked):"
printf '%-10s %-8s %-18s %-18s %-18s %-18s\n' mode test "64-255 B" "256-511 B" "512-2047 B" "plateau"
for nic in aligned nfp6000-pciebench compat rcb; do
  for sel in RD WR "RD WR" RW; do
    plat=$(awk -v nic=$nic -v sel="$sel" 'index(sel,$3) && $4==nic && $2==256 && ($5==256||$5==512||$5==1024||$5==1536||$5==2048)' "$tmp/all" | awk "$abs" | median)
    printf '%-10s %-8s %-18s %-18s %-18s %-18s\n' "${nic%%6000*}" "${sel// /+}" "$(band 64 255 $nic "$sel" 256)" \
      "$(band 256 511 $nic "$sel" 256)" "$(band 512 2047 $nic "$sel" 256)" "$plat"
  done
  for sel in RD WR RW; do
    printf '%-10s %-8s %-18s %-18s %-18s %-18s\n' "${nic%%6000*}" "$sel@128" "$(band 64 255 $nic "$sel" 128)" \
      "$(band 256 511 $nic "$sel" 128)" "$(band 512 2047 $nic "$sel" 128)" "-"
  done
done

echo
"$here/bench/model-bands.sh" "$exe"
