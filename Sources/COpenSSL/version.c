#include "COpenSSL.h"

unsigned long tokenswap_openssl_version_number(void) {
    return OpenSSL_version_num();
}
