/* Core checks: the execution descriptor, error details, ISA caps, thread
 * caps, the FP environment and the struct layout rule. */
#define WK_CHECKS_CORE(X)              \
    X(exec_validation, plain)          \
    X(error_detail, plain)             \
    X(isa_caps, plain)                 \
    X(isa_env, plain)                  \
    X(thread_caps, plain)              \
    X(fp_environment, isa)             \
    X(concurrent_callers, plain)       \
    X(struct_layout, plain)
