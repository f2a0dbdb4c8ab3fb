#ifndef NOTEPRESS_CCMARKGFM_SHIM_H
#define NOTEPRESS_CCMARKGFM_SHIM_H
#include <stdbool.h>
#include <stdint.h>
#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
/* Debian installs no core-extensions header with every package set; declare the one entry point we use. */
void cmark_gfm_core_extensions_ensure_registered(void);
/* Declared in cmark-gfm-core-extensions.h; used to read task-list state and table alignments. */
uint16_t cmark_gfm_extensions_get_table_columns(cmark_node *node);
uint8_t *cmark_gfm_extensions_get_table_alignments(cmark_node *node);
int cmark_gfm_extensions_get_table_row_is_header(cmark_node *node);
bool cmark_gfm_extensions_get_tasklist_item_checked(cmark_node *node);
#endif
