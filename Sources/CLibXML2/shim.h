#ifndef NOTEPRESS_CLIBXML2_SHIM_H
#define NOTEPRESS_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* libxml2's ICU support pulls in unicode/*.h, which clashes with Foundation's ICU module. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/relaxng.h>
#include <libxml/xmlsave.h>
#include <libxml/xmlwriter.h>
#endif
