#pragma once

// The C++ half of the ordering model (stream_order.h): launches an extension export makes on a
// stream of its own, read in the export's call order. Private to the semantic layer.

#include "kbaudit/semantic/forward_reach.h"
#include "kbaudit/semantic/stream_order.h"

namespace kbaudit::semantic {

/// Appends to `out` the launches of the exports `reach` calls that run on a stream the export
/// creates (or keeps in a global) and that nothing orders before the export returns: no stream
/// or device synchronisation, no event recorded after them that the caller's stream waits for,
/// and not recorded into a graph capture.
void cxxEscapes(const ForwardReach &reach, StreamOrder &out);

} // namespace kbaudit::semantic
