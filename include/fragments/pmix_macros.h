/* (filled in by the header-macros change) */
