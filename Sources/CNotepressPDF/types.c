// The PDF shim's interface (include/notepress_pdf.h): the types Swift (NotepressPDF) and the shim
// (NotepressPDFShim) share. This target holds no code; the functions live in the shim, which
// NotepressPDF loads with dlopen(3) and looks up by name.
#include "notepress_pdf.h"
