/*
 * Test-only bcryptprimitives.dll for running Go Windows test binaries under
 * Wine 8.0, which ships no bcryptprimitives.dll. Every Go >= 1.22 binary
 * imports ProcessPrng from it for the runtime's random source; this DLL
 * answers it with RtlGenRandom (advapi32!SystemFunction036), which Wine has.
 * Never shipped: built by .ci/wine/test-windows.sh into the Wine prefix.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
	while (length > 0) {
		ULONG n = length > 0x40000000 ? 0x40000000 : (ULONG)length;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		length -= n;
	}
	return TRUE;
}
