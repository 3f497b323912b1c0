/* fault.c — a CTA's fault record. */
#include "cta/cta.h"

const char *we_fault_name(we_fault_kind k)
{
	switch (k) {
	case WE_FAULT_NONE: return "none";
	case WE_FAULT_ILLEGAL_INSTR: return "illegal instruction";
	case WE_FAULT_MEM_RANGE: return "out-of-range memory access";
	case WE_FAULT_MEM_ALIGN: return "misaligned memory access";
	case WE_FAULT_PC_RANGE: return "PC outside the kernel";
	case WE_FAULT_BARRIER: return "barrier exception";
	case WE_FAULT_WARPSYNC: return "WARPSYNC exception";
	case WE_FAULT_TRAP: return "TRAP";
	case WE_FAULT_SYSCALL: return "SYSCALL";
	case WE_FAULT_RTT: return "RTT outside a trap handler";
	case WE_FAULT_DEADLOCK: return "deadlock";
	case WE_FAULT_WATCHDOG: return "watchdog";
	case WE_FAULT_INTERRUPTED: return "interrupted";
	}
	return "unknown fault";
}