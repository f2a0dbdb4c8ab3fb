#ifndef NOTEPRESS_CICU_SHIM_H
#define NOTEPRESS_CICU_SHIM_H
#include <unicode/uversion.h>
#endif
