#ifndef NOTEPRESS_CYAML_SHIM_H
#define NOTEPRESS_CYAML_SHIM_H
#include <yaml.h>
#endif
