/* Golden hashes: outputs for fixed seeds and parameters must keep their
 * bits across versions (the same seed gives the same world). */
#define WK_CHECKS_GOLDEN(X) X(golden_hashes, plain)
