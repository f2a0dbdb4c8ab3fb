// libNotepressPDFShim.so: the functions of ../../CNotepressPDF/include/notepress_pdf.h, loaded
// with dlopen(3) by NotepressPDF.
#include "notepress_pdf.h"
