#if defined(c_plusplus) || defined(__cplusplus)
}
#endif
