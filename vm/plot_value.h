// The language's `Plot` value (TypeDesc::Kind::kPlot) and vm/plot.h's Plot,
// both ways. A Plot value is a tuple object: (series, title, xlabel,
// ylabel), series an array of (kind: Int, x: [Float], y: [Float], left_out:
// Int, label: Str) tuples (kind a PlotSeries::Kind), the labels Strs; the
// language shows none of it, only `print`, `str`, `save_plot` and `overlay` read it.
#ifndef ALEA_VM_PLOT_VALUE_H_
#define ALEA_VM_PLOT_VALUE_H_

#include "vm/heap.h"
#include "vm/plot.h"
#include "vm/value.h"

namespace alea::vm {

// The plot a Plot value holds (a malformed one, which only corrupted
// bytecode could make, reads as the series it can).
Plot PlotOf(const Object* value);

// A new Plot value (owned), or null when the heap refused.
Object* NewPlotValue(Heap& heap, const Plot& plot);

}  // namespace alea::vm

#endif  // ALEA_VM_PLOT_VALUE_H_
