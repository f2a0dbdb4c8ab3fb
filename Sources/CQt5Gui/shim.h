#ifndef NOTEPRESS_CQT5GUI_SHIM_H
#define NOTEPRESS_CQT5GUI_SHIM_H
// Deliberately empty: the module only carries Qt's pkg-config flags to NotepressSyntaxShim, which
// includes Qt's C++ headers itself (a C module cannot hold them).
#endif
