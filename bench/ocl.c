/* ocl.c — the OpenCL host layer of bench/wbench, loaded at run time (see
 * ocl.h).  The types and constants below are those of the OpenCL 1.2
 * specification, declared here so that building needs no OpenCL package. */
#define _GNU_SOURCE /* RTLD_DEFAULT, strcasestr */
#include "ocl.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_bitfield;
typedef cl_bitfield cl_device_type;
typedef cl_bitfield cl_mem_flags;
typedef cl_bitfield cl_command_queue_properties;
typedef cl_uint cl_platform_info;
typedef cl_uint cl_device_info;
typedef cl_uint cl_program_build_info;
typedef intptr_t cl_context_properties;
typedef struct _cl_platform_id *cl_platform_id;
typedef struct _cl_device_id *cl_device_id;
typedef struct _cl_context *cl_context;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_mem *cl_mem;
typedef struct _cl_program *cl_program;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;

#define CL_SUCCESS 0
#define CL_TRUE 1
#define CL_PLATFORM_NAME 0x0902
#define CL_DEVICE_NAME 0x102B
#define CL_DEVICE_TYPE_ALL 0xFFFFFFFFu
#define CL_MEM_READ_WRITE (1u << 0)
#define CL_MEM_COPY_HOST_PTR (1u << 5)
#define CL_PROGRAM_BUILD_LOG 0x1183

/* The entry points used, in one table: name, then pointer. */
#define OCL_FUNCS(X) \
	X(clGetPlatformIDs, cl_int, (cl_uint, cl_platform_id *, cl_uint *)) \
	X(clGetPlatformInfo, cl_int, (cl_platform_id, cl_platform_info, size_t, void *, size_t *)) \
	X(clGetDeviceIDs, cl_int, (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *)) \
	X(clGetDeviceInfo, cl_int, (cl_device_id, cl_device_info, size_t, void *, size_t *)) \
	X(clCreateContext, cl_context, (const cl_context_properties *, cl_uint, const cl_device_id *, \
					void (*)(const char *, const void *, size_t, void *), void *, cl_int *)) \
	X(clCreateCommandQueue, cl_command_queue, (cl_context, cl_device_id, cl_command_queue_properties, cl_int *)) \
	X(clCreateBuffer, cl_mem, (cl_context, cl_mem_flags, size_t, void *, cl_int *)) \
	X(clEnqueueWriteBuffer, cl_int, (cl_command_queue, cl_mem, cl_uint, size_t, size_t, const void *, \
					 cl_uint, const cl_event *, cl_event *)) \
	X(clEnqueueReadBuffer, cl_int, (cl_command_queue, cl_mem, cl_uint, size_t, size_t, void *, \
					cl_uint, const cl_event *, cl_event *)) \
	X(clCreateProgramWithSource, cl_program, (cl_context, cl_uint, const char **, const size_t *, cl_int *)) \
	X(clBuildProgram, cl_int, (cl_program, cl_uint, const cl_device_id *, const char *, \
				   void (*)(cl_program, void *), void *)) \
	X(clGetProgramBuildInfo, cl_int, (cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *)) \
	X(clCreateKernel, cl_kernel, (cl_program, const char *, cl_int *)) \
	X(clSetKernelArg, cl_int, (cl_kernel, cl_uint, size_t, const void *)) \
	X(clEnqueueNDRangeKernel, cl_int, (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, \
					   const size_t *, cl_uint, const cl_event *, cl_event *)) \
	X(clFinish, cl_int, (cl_command_queue)) \
	X(clReleaseMemObject, cl_int, (cl_mem)) \
	X(clReleaseKernel, cl_int, (cl_kernel)) \
	X(clReleaseProgram, cl_int, (cl_program)) \
	X(clReleaseCommandQueue, cl_int, (cl_command_queue)) \
	X(clReleaseContext, cl_int, (cl_context))

#define OCL_MAX_BUFS 8

struct ocl {
	void *lib; /* NULL for OCL_PRELOADED */
#define X(name, ret, args) ret (*name) args;
	OCL_FUNCS(X)
#undef X
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx;
	cl_command_queue queue;
	cl_program prog;
	cl_kernel kern;
	cl_mem bufs[OCL_MAX_BUFS];
	unsigned nbufs;
	char name[256];
	char err[1024];
};

static const char *cl_err_name(cl_int e)
{
	switch (e) {
	case -1: return "CL_DEVICE_NOT_FOUND";
	case -2: return "CL_DEVICE_NOT_AVAILABLE";
	case -3: return "CL_COMPILER_NOT_AVAILABLE";
	case -4: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
	case -5: return "CL_OUT_OF_RESOURCES";
	case -6: return "CL_OUT_OF_HOST_MEMORY";
	case -11: return "CL_BUILD_PROGRAM_FAILURE";
	case -30: return "CL_INVALID_VALUE";
	case -33: return "CL_INVALID_DEVICE";
	case -34: return "CL_INVALID_CONTEXT";
	case -38: return "CL_INVALID_MEM_OBJECT";
	case -45: return "CL_INVALID_PROGRAM_EXECUTABLE";
	case -46: return "CL_INVALID_KERNEL_NAME";
	case -48: return "CL_INVALID_KERNEL";
	case -49: return "CL_INVALID_ARG_INDEX";
	case -50: return "CL_INVALID_ARG_VALUE";
	case -51: return "CL_INVALID_ARG_SIZE";
	case -52: return "CL_INVALID_KERNEL_ARGS";
	case -53: return "CL_INVALID_WORK_DIMENSION";
	case -54: return "CL_INVALID_WORK_GROUP_SIZE";
	case -55: return "CL_INVALID_WORK_ITEM_SIZE";
	case -63: return "CL_INVALID_GLOBAL_WORK_SIZE";
	case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
	default: return "OpenCL error";
	}
}

static void seterr(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

#define FAIL(o, call, e) \
	(seterr((o)->err, sizeof (o)->err, "%s: %s (%d)", call, cl_err_name(e), (int)(e)), -1)

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int resolve(ocl *o, const char *name, void *fp, size_t fpsize)
{
	void *sym = dlsym(o->lib ? o->lib : RTLD_DEFAULT, name);
	if (!sym)
		return -1;
	/* POSIX guarantees that a dlsym result converts to a function pointer */
	if (fpsize != sizeof sym)
		return -1;
	memcpy(fp, &sym, fpsize);
	return 0;
}

int ocl_open(ocl **out, ocl_source src, const char *want, char *err, size_t errlen)
{
	*out = NULL;
	ocl *o = calloc(1, sizeof *o);
	if (!o) {
		seterr(err, errlen, "out of memory");
		return -1;
	}
	if (src == OCL_ICD) {
		o->lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
		if (!o->lib)
			o->lib = dlopen("libOpenCL.so", RTLD_NOW | RTLD_LOCAL);
		if (!o->lib) {
			seterr(err, errlen, "no OpenCL ICD loader (libOpenCL.so.1): %s", dlerror());
			free(o);
			return -1;
		}
	}
#define X(name, ret, args) \
	if (resolve(o, #name, &o->name, sizeof o->name)) { \
		seterr(err, errlen, "OpenCL entry point %s not found", #name); \
		ocl_close(o); \
		return -1; \
	}
	OCL_FUNCS(X)
#undef X
	cl_uint np = 0;
	cl_int e = o->clGetPlatformIDs(0, NULL, &np);
	if (e != CL_SUCCESS || np == 0) {
		seterr(err, errlen, "no OpenCL platform (clGetPlatformIDs: %s, %d)", cl_err_name(e), (int)e);
		ocl_close(o);
		return -1;
	}
	cl_platform_id *ps = calloc(np, sizeof *ps);
	if (!ps || o->clGetPlatformIDs(np, ps, NULL) != CL_SUCCESS) {
		free(ps);
		seterr(err, errlen, "clGetPlatformIDs failed");
		ocl_close(o);
		return -1;
	}
	char names[512] = "";
	char pname[128] = "";
	for (cl_uint i = 0; i < np && !o->platform; i++) {
		char nm[128] = "";
		if (o->clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof nm - 1, nm, NULL) != CL_SUCCESS)
			continue;
		size_t l = strlen(names);
		snprintf(names + l, sizeof names - l, "%s\"%s\"", l ? ", " : "", nm);
		if (!want || !*want || strcasestr(nm, want)) {
			o->platform = ps[i];
			snprintf(pname, sizeof pname, "%s", nm);
		}
	}
	free(ps);
	if (!o->platform) {
		seterr(err, errlen, "no OpenCL platform named like \"%s\" (found %s)", want, names);
		ocl_close(o);
		return -1;
	}
	e = o->clGetDeviceIDs(o->platform, CL_DEVICE_TYPE_ALL, 1, &o->device, NULL);
	if (e != CL_SUCCESS) {
		seterr(err, errlen, "%s: no device (%s, %d)", pname, cl_err_name(e), (int)e);
		ocl_close(o);
		return -1;
	}
	char dname[128] = "";
	o->clGetDeviceInfo(o->device, CL_DEVICE_NAME, sizeof dname - 1, dname, NULL);
	snprintf(o->name, sizeof o->name, "%.125s / %.125s", pname, dname); /* (fits: 253 < 256) */
	o->ctx = o->clCreateContext(NULL, 1, &o->device, NULL, NULL, &e);
	if (!o->ctx) {
		seterr(err, errlen, "clCreateContext: %s (%d)", cl_err_name(e), (int)e);
		ocl_close(o);
		return -1;
	}
	o->queue = o->clCreateCommandQueue(o->ctx, o->device, 0, &e);
	if (!o->queue) {
		seterr(err, errlen, "clCreateCommandQueue: %s (%d)", cl_err_name(e), (int)e);
		ocl_close(o);
		return -1;
	}
	*out = o;
	return 0;
}

void ocl_close(ocl *o)
{
	if (!o)
		return;
	if (o->clReleaseMemObject)
		for (unsigned i = 0; i < o->nbufs; i++)
			o->clReleaseMemObject(o->bufs[i]);
	if (o->kern)
		o->clReleaseKernel(o->kern);
	if (o->prog)
		o->clReleaseProgram(o->prog);
	if (o->queue)
		o->clReleaseCommandQueue(o->queue);
	if (o->ctx)
		o->clReleaseContext(o->ctx);
	/* The ICD loader stays loaded: OpenCL implementations do not expect
	 * to be unloaded while their threads may still be winding down. */
	free(o);
}

const char *ocl_error(const ocl *o)
{
	return o->err;
}

const char *ocl_name(const ocl *o)
{
	return o->name;
}

int ocl_build(ocl *o, const char *src, size_t len, const char *kernel)
{
	cl_int e;
	o->prog = o->clCreateProgramWithSource(o->ctx, 1, &src, &len, &e);
	if (!o->prog)
		return FAIL(o, "clCreateProgramWithSource", e);
	e = o->clBuildProgram(o->prog, 1, &o->device, "", NULL, NULL);
	if (e != CL_SUCCESS) {
		char log[700] = "";
		o->clGetProgramBuildInfo(o->prog, o->device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
		for (char *p = log; *p; p++)
			if (*p == '\n')
				*p = ' ';
		seterr(o->err, sizeof o->err, "clBuildProgram: %s (%d): %s", cl_err_name(e), (int)e, log);
		return -1;
	}
	o->kern = o->clCreateKernel(o->prog, kernel, &e);
	if (!o->kern)
		return FAIL(o, "clCreateKernel", e);
	return 0;
}

int ocl_buffer(ocl *o, size_t bytes, const void *init, int *id)
{
	if (o->nbufs == OCL_MAX_BUFS) {
		seterr(o->err, sizeof o->err, "too many buffers");
		return -1;
	}
	cl_int e;
	cl_mem m = o->clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
	if (!m)
		return FAIL(o, "clCreateBuffer", e);
	o->bufs[o->nbufs] = m;
	*id = (int)o->nbufs++;
	if (init)
		return ocl_write(o, *id, init, bytes);
	void *z = calloc(1, bytes);
	if (!z) {
		seterr(o->err, sizeof o->err, "out of memory");
		return -1;
	}
	int r = ocl_write(o, *id, z, bytes);
	free(z);
	return r;
}

int ocl_write(ocl *o, int id, const void *src, size_t bytes)
{
	cl_int e = o->clEnqueueWriteBuffer(o->queue, o->bufs[id], CL_TRUE, 0, bytes, src, 0, NULL, NULL);
	return e == CL_SUCCESS ? 0 : FAIL(o, "clEnqueueWriteBuffer", e);
}

int ocl_read(ocl *o, int id, void *dst, size_t bytes)
{
	cl_int e = o->clEnqueueReadBuffer(o->queue, o->bufs[id], CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
	return e == CL_SUCCESS ? 0 : FAIL(o, "clEnqueueReadBuffer", e);
}

int ocl_arg_u32(ocl *o, unsigned index, uint32_t v)
{
	cl_uint x = v;
	cl_int e = o->clSetKernelArg(o->kern, index, sizeof x, &x);
	return e == CL_SUCCESS ? 0 : FAIL(o, "clSetKernelArg", e);
}

int ocl_arg_f32(ocl *o, unsigned index, float v)
{
	cl_int e = o->clSetKernelArg(o->kern, index, sizeof v, &v);
	return e == CL_SUCCESS ? 0 : FAIL(o, "clSetKernelArg", e);
}

int ocl_arg_buf(ocl *o, unsigned index, int id)
{
	cl_int e = o->clSetKernelArg(o->kern, index, sizeof(cl_mem), &o->bufs[id]);
	return e == CL_SUCCESS ? 0 : FAIL(o, "clSetKernelArg", e);
}

int ocl_run(ocl *o, unsigned dims, const size_t *global, const size_t *local, double *seconds)
{
	cl_int e = o->clFinish(o->queue);
	if (e != CL_SUCCESS)
		return FAIL(o, "clFinish", e);
	double t0 = now();
	e = o->clEnqueueNDRangeKernel(o->queue, o->kern, dims, NULL, global, local, 0, NULL, NULL);
	if (e != CL_SUCCESS)
		return FAIL(o, "clEnqueueNDRangeKernel", e);
	e = o->clFinish(o->queue);
	*seconds = now() - t0;
	return e == CL_SUCCESS ? 0 : FAIL(o, "clFinish", e);
}
