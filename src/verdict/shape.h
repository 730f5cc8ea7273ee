/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cross-row evidence (elasticity, per-packet limits): see shape.c. Internal to src/verdict. */
#ifndef PCIBW_VERDICT_SHAPE_H
#define PCIBW_VERDICT_SHAPE_H

#include "pcibw/verdict.h"

/* pcibw_shape - set elasticity/elasticity_of and per_packet/flat_* on every row. -1 on OOM. */
int pcibw_shape(struct pcibw_rows *rs, const struct pcibw_thresholds *t);

/* pcibw_elasticity - d ln y / d ln x over n points (slope, or arc elasticity; see shape.c). NAN
 * when x does not vary. */
double pcibw_elasticity(const double *x, const double *y, int n);

#endif
