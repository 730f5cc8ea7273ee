#!/usr/bin/env bash
# The model's band against every NFP-6000 sweep of pcie-bench/data (bench/data/pcie-bench: the size,
# host/device offset and window sweeps of 21 runs on six hosts; README.md there). For each measured
# point it runs `pcibw model` with the run's bus (MPS, MRRS from its sys-lspci.txt) and its host
# settings stated as bus modifiers (numa=, iommu=, from the run's directory name) and prints, by host
# and by size band: the share of points inside [low, high] (and within 2 % of it), the median band
# width, the median and P90 |error| of the expected figure, and the worst machine of a
# leave-one-machine-out pass (the five Xeon E5 machines; the burst gaps and max_dma_tps read again
# from the other four, doc/model.md sec. 8). Usage: bench/model-bands.sh [PCIBW_EXE] [--points]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-${PCIBW_EXE:-$here/build/pcibw}}
points=${2:-}
data=${PCIBW_BENCH_DATA:-$here/bench/data/pcie-bench}
export PCIBW_DATA_DIR=${PCIBW_DATA_DIR:-$here/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# machine: the five E5 machines and the E3; placement sA-sB-sC: the device's, the CPU's and the
# memory's socket (pcie-bench/data README); -iommu / -iommu-nosp: IOMMU on (without super pages)
machine_of() {
  case $1 in
    *snb-Xeon-E5-2630_dell-t620*) echo snb-t620 ;;
    *ib-Xeon-E5-2620v2_dell-t620*) echo ivb-t620 ;;
    *hsw-Xeon-E5-2620v3_dell-t630*) echo hsw-t630 ;;
    *hsw-Xeon-E5-2637v3_supermicro*) echo hsw-supermicro ;;
    *bdw-Xeon-E5-2630v4-dell-t430*) echo bdw-t430 ;;
    *hsw-Xeon-E3-1226v3_fujitsu*) echo e3-fujitsu ;;
    *) echo unknown ;;
  esac
}

# model one run's points: $1 dir, $2 csv, $3 extra bus modifiers, $4 profile overrides (--nic-set
# list, may be empty). Writes "machine variant kind test size ho do measured low expected high"
model_run() {
  local dir=$1 csv=$2 mods=$3 sets=$4 name; name=$(basename "$dir")
  local m; m=$(machine_of "$name")
  local mps mrrs
  read -r mps mrrs < <(grep -A40 "Netronome\|19ee:" "$dir/sys-lspci.txt" | grep -m1 -o "MaxPayload [0-9]* bytes, MaxReadReq [0-9]*" | awk '{print $2, $5}')
  local numa=local iommu=off
  case $name in *s?-s?-s1*) numa=remote ;; esac
  case $name in *-iommu*) iommu=on ;; esac
  local variant="numa=$numa,iommu=$iommu" label
  # the rows tell the IOMMU runs without super pages (4 KB IOTLB entries) apart
  label=$variant
  case $name in *-iommu-nosp) label="$variant-nosp" ;; esac
  local kind; kind=$(basename "$csv" .csv)
  kind=${kind#bw_dma_}
  case $kind in sz_sweep) kind=size ;; off_*) kind=offset ;; win_*) kind=window ;; esac
  # points grouped by test and host offset: one model call each
  awk -F, 'NR>1 {print $1, $4, $5, $7, $12}' "$csv" > "$tmp/pts"
  local t ho
  for key in $(awk '{print $1 ":" $2}' "$tmp/pts" | sort -u); do
    t=${key%%:*}; ho=${key##*:}
    local pat
    case $t in BW_DMA_RD) pat=dma-read ;; BW_DMA_WR) pat=dma-write ;; *) pat=dma-rw ;; esac
    awk -v t="$t" -v ho="$ho" '$1==t && $2==ho' "$tmp/pts" > "$tmp/sel"
    local sizes; sizes=$(awk '{print $4}' "$tmp/sel" | sort -un | paste -sd,)
    # the size and window sweeps place transfers as pcie-bench does (host offset 0); the offset
    # sweeps start every transfer at the host offset (sequential placement)
    local off=pciebench
    [ "$kind" = offset ] && off=$ho
    local bus="gen3x8,mps=$mps,mrrs=$mrrs,dma_offset=$off,$variant$mods"
    # shellcheck disable=SC2086
    "$exe" model --bus "$bus" --nic nfp6000-pciebench $sets --pattern "$pat" --size-is dma \
      --sizes "$sizes" --format csv | awk -F, 'NR>1 {print $1, $15, $3, $16}' > "$tmp/mod"
    awk -v m="$m" -v v="$label" -v k="$kind" -v t="${t#BW_DMA_}" 'NR==FNR {lo[$1]=$2; ex[$1]=$3; hi[$1]=$4; next}
      { printf "%s %s %s %s %d %s %s %.4f %.4f %.4f %.4f\n", m, v, k, t, $4, $2, $3, $5, lo[$4], ex[$4], hi[$4] }' \
      "$tmp/mod" "$tmp/sel"
  done
}

all_runs() { # $1 extra modifiers, $2 --nic-set list, $3 machine to keep only (or "")
  for dir in "$data"/nfp6000-*/; do
    dir=${dir%/}
    [ -n "$3" ] && [ "$(machine_of "$(basename "$dir")")" != "$3" ] && continue
    for csv in "$dir"/bw_*.csv; do
      model_run "$dir" "$csv" "$1" "$2"
    done
  done
}

all_runs "" "" "" > "$tmp/all"
[ "$points" = --points ] && cat "$tmp/all"

# summary of a selection of points (stdin): n, inside [low, high], inside within 2 %, median band
# width, median and P90 |error| of expected (%)
summ() {
  awk '{ n++; in0 += ($8 >= $9 && $8 <= $11); in2 += ($8 >= 0.98 * $9 && $8 <= 1.02 * $11);
         w[n] = ($11 - $9) / $10 * 100; e = ($10 - $8) / $8 * 100; if (e < 0) e = -e; err[n] = e }
    function q(a, n, p,   i, j, t, k) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
      k = int(p * (n - 1) + 0.5) + 1; return a[k] }
    END { if (!n) { printf "%6d %7s %7s %7s %7s %7s\n", 0, "-", "-", "-", "-", "-"; exit }
      printf "%6d %6.1f%% %6.1f%% %6.2f%% %6.2f%% %6.2f%%\n", n, in0 / n * 100, in2 / n * 100, q(w, n, 0.5), q(err, n, 0.5), q(err, n, 0.9) }'
}
hdr() { printf '%-44s %6s %7s %7s %7s %7s %7s\n' "$1" n inside "+-2%" width "med|e|" "P90|e|"; }
sel() { # $1 awk condition on the point fields
  awk "$1" "$tmp/all"; }

echo "band against every measured point (inside: low <= measured <= high; +-2%: within 2 % of the band;"
echo "width: (high - low) / expected; |e|: |expected - measured| / measured), transfers >= 256 B:"
hdr "by host (machine, numa, iommu)"
for h in $(awk '{print $1 "/" $2}' "$tmp/all" | sort -u); do
  printf '%-44s ' "$h"; sel "\$5 >= 256 && (\$1 \"/\" \$2) == \"$h\"" | summ
done
echo
hdr "by sweep kind, test and size band (all hosts)"
for k in size offset window; do
  for t in RD WR RW; do
    for b in 64:255 256:511 512:2047 2048:65536; do
      lo=${b%%:*}; hi=${b##*:}
      c="\$3 == \"$k\" && \$4 == \"$t\" && \$5 >= $lo && \$5 <= $hi"
      [ -z "$(sel "$c" | head -1)" ] && continue
      printf '%-44s ' "$k $t $lo-$hi B"; sel "$c" | summ
    done
  done
done
echo
hdr "the goals (E5 hosts; device offset 0)"
printf '%-44s ' "all >= 256 B (goal: +-2% >= 90%)"; sel '$1 != "e3-fujitsu" && $5 >= 256 && $7 == 0' | summ
printf '%-44s ' "256-511 B (goal: width <= 15%)"; sel '$1 != "e3-fujitsu" && $5 >= 256 && $5 <= 511 && $7 == 0' | summ
printf '%-44s ' "512-2047 B (goal: width <= 10%)"; sel '$1 != "e3-fujitsu" && $5 >= 512 && $5 <= 2047 && $7 == 0' | summ
printf '%-44s ' "MPS-128 E3 host, >= 256 B"; sel '$1 == "e3-fujitsu" && $5 >= 256' | summ
printf '%-44s ' "device offset != 0 (not modelled), >= 256 B"; sel '$7 != 0 && $5 >= 256' | summ

# leave one machine out: the host constants of the profile read again from the other four E5
# machines (size sweeps, IOMMU as stated by each run), the held-out machine's points modelled
# with them. write_burst_gap_ns: the median, over the runs whose 512 B write leaves a gap below
# 5 ns, of 1e9 / (transfers/s) - 71.285 ns (two 256 B MWr at Gen3 x8's 7.8558 GB/s); the
# slowest gap: the largest such value; max_dma_tps: the median 64 B write rate.
echo
echo "leave one machine out (E5 machines; gaps and max_dma_tps read from the other four), >= 256 B:"
hdr "held-out machine: its points"
for m in snb-t620 ivb-t620 hsw-t630 hsw-supermicro bdw-t430; do
  read -r gap gmax tps < <(for dir in "$data"/nfp6000-*E5*/; do
      [ "$(machine_of "$(basename "$dir")")" = "$m" ] && continue
      awk -F, '$1=="BW_DMA_WR" && $7==512 {print "g", 1e9 / $13 - 71.285} $1=="BW_DMA_WR" && $7==64 {print "t", $13}' "$dir/bw_dma_sz_sweep.csv"
    done | awk '$1=="g" {g[++ng]=$2} $1=="t" {t[++nt]=$2}
      function med(a, n,   i, j, x) { for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j+1] = a[j]; a[j+1] = x }
        return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
      END { m = 0; for (i = 1; i <= ng; i++) { if (g[i] < 5) f[++nf] = g[i]; if (g[i] > m) m = g[i] }
        printf "%.2f %.2f %.4g\n", med(f, nf), m, med(t, nt) }')
  sets="--nic-set device.write_burst_gap_ns=$gap --nic-set device.write_burst_gap_max_ns=$gmax --nic-set device.max_dma_tps=$tps"
  all_runs "" "$sets" "$m" > "$tmp/loo"
  printf '%-44s ' "$m (gap $gap, slowest $gmax ns, $tps/s)"
  awk '$5 >= 256 && $7 == 0' "$tmp/loo" | summ
done
