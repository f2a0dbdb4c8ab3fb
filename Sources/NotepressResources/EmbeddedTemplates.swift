// The files of Templates/ by their paths there. SwiftPM embeds each file as a byte array named
// after the file (`resources: [.embedInCode("Templates")]` in Package.swift: `page.html` is
// `PackageResources.page_html`) and drops the folders, so this table puts the paths back. A file
// added to Templates/ is added here too (TemplateStoreEmbeddingTests fails until it is); two files
// of the same name in different folders would clash (SwiftPM names both alike), so names stay
// unique.

/// Path below `Templates/` → the file's bytes, as the binary carries them.
let embeddedTemplateFiles: [String: [UInt8]] = [
    "html/not-found.html": PackageResources.not_found_html,
    "html/breadcrumbs.html": PackageResources.breadcrumbs_html,
    "html/list-pages.html": PackageResources.list_pages_html,
    "html/site-assets.html": PackageResources.site_assets_html,
    "html/site-head.html": PackageResources.site_head_html,
    "html/site-layout-end.html": PackageResources.site_layout_end_html,
    "html/site-layout-start.html": PackageResources.site_layout_start_html,
    "html/nav-item.html": PackageResources.nav_item_html,
    "html/nav-link.html": PackageResources.nav_link_html,
    "html/pager.html": PackageResources.pager_html,
    "html/search-box.html": PackageResources.search_box_html,
    "html/search.html": PackageResources.search_html,
    "html/print.html": PackageResources.print_html,
    "html/sidebar.html": PackageResources.sidebar_html,
    "html/site-header.html": PackageResources.site_header_html,
    "html/site.css": PackageResources.site_css,
    "html/site.js": PackageResources.site_js,
    "html/math.js": PackageResources.math_js,
    "html/index.html": PackageResources.index_html,
    "html/note-entry.html": PackageResources.note_entry_html,
    "html/page.html": PackageResources.page_html,
    "html/tag.html": PackageResources.tag_html,
    "tei/notepress-tei.rng": PackageResources.notepress_tei_rng,
    "themes/default.json": PackageResources.default_json,
    "themes/high-contrast.json": PackageResources.high_contrast_json,
    "themes/reading.json": PackageResources.reading_json,
]
