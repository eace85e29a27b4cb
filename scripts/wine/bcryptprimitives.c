/*
 * A stand-in bcryptprimitives.dll for Wine 8.0 (Debian 12's wine64), which lacks the DLL.
 * Programs built with Go 1.24 or later call its ProcessPrng for random bytes as they start,
 * and stop with "bcryptprimitives.dll not found" without it. Windows 10 and later ship the
 * real DLL; this one exists only so scripts/package.sh can run the Windows build under Wine,
 * and forwards to RtlGenRandom (advapi32's SystemFunction036), which Wine has.
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n)) {
            return FALSE;
        }
        data += n;
        len -= n;
    }
    return TRUE;
}
