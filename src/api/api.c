/* api.c — the public API (warpemu.h) over the internal modules. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "device/device.h"
#include "engine/engine.h"
#include "exec/exec.h"
#include "asm/module.h"
#include "ptx/ptx.h"
#include "warpemu/warpemu.h"

/* A module lowered from PTX with .global variables (ptx.h): device
 * memory for them, initialised from their image, and each one's address
 * in its slot of the address bank.  They live on the device as long as it
 * does (CUDA's live as long as the module). */
static we_status place_ptx_globals(we_device *dev, struct we_module *m)
{
	const we_cbank *img = &m->cbank[PTX_GLOBAL_IMAGE_BANK], *off = &m->cbank[PTX_GLOBAL_OFF_BANK];
	we_cbank *adr = &m->cbank[PTX_GLOBAL_ADDR_BANK];
	if (!m->nkernels || m->kernels[0].dialect != WE_DIALECT_PTX || !img->size || off->size % 8 ||
	    adr->size != off->size)
		return WE_OK;
	we_devptr base;
	we_status st = we_malloc(dev, img->size, &base);
	if (st == WE_OK)
		st = we_memcpy_htod(dev, base, img->data, img->size);
	if (st == WE_OK) {
		m->globals = base;
		m->globals_size = img->size;
	}
	for (uint32_t k = 0; st == WE_OK && k < off->size; k += 8) {
		uint64_t o, a;
		memcpy(&o, off->data + k, 8);
		a = base + o;
		memcpy(adr->data + k, &a, 8);
	}
	return st;
}

static we_status finish_load(we_device *dev, struct we_module *m, we_module **out)
{
	char err[512];
	we_status st = place_ptx_globals(dev, m);
	if (st != WE_OK) {
		dev_error(dev, "%s: no device memory for its .global variables", m->source ? m->source : "module");
		module_free(m);
		return st;
	}
	st = exec_prepare_module(m, err, sizeof err);
	if (st != WE_OK) {
		dev_error(dev, "%s", err);
		module_free(m);
		return st;
	}
	*out = m;
	return WE_OK;
}

we_status we_module_load_text(we_device *dev, const char *text, size_t len, const char *filename,
			      we_module **out)
{
	if (!dev || !out || (!text && len))
		return WE_ERR_INVALID;
	*out = NULL;
	struct we_module *m = NULL;
	char *diag = NULL;
	const char *src = text ? text : "";
	const char *fn = filename ? filename : "<input>";
	/* PTX (by its .version/.target directives or the .ptx suffix) goes
	 * through the front end, which lowers it and assembles the result */
	we_status st = ptx_is_ptx(src, len, filename) ? ptx_load(src, len, fn, &m, &diag)
						       : asm_assemble(src, len, fn, &m, &diag);
	if (st != WE_OK) {
		dev_error_take(dev, diag);
		return st;
	}
	free(diag);
	return finish_load(dev, m, out);
}

we_status we_module_load_binary(we_device *dev, const void *image, size_t len, we_module **out)
{
	if (!dev || !out || (!image && len))
		return WE_ERR_INVALID;
	*out = NULL;
	struct we_module *m = NULL;
	char err[512];
	we_status st = module_load(image, len, &m, err, sizeof err);
	if (st != WE_OK) {
		/* (module_load's messages name the image themselves) */
		dev_error(dev, "%s", err);
		return st;
	}
	return finish_load(dev, m, out);
}

we_status we_module_save_binary(const we_module *m, void **image, size_t *len)
{
	if (!m || !image || !len)
		return WE_ERR_INVALID;
	return module_save(m, image, len);
}

we_status we_module_disassemble(const we_module *m, char **text)
{
	if (!m || !text)
		return WE_ERR_INVALID;
	*text = dis_module(m);
	return *text ? WE_OK : WE_ERR_NOMEM;
}

void we_module_destroy(we_module *m)
{
	if (!m)
		return;
	exec_free_module(m);
	module_free(m);
}

unsigned we_module_kernel_count(const we_module *m)
{
	return m ? m->nkernels : 0;
}

const we_kernel_info *we_module_kernel(const we_module *m, unsigned i)
{
	return m && i < m->nkernels ? &m->kernels[i].info : NULL;
}

const char *we_param_type_name(we_param_type t)
{
	return (unsigned)t < MODULE_NPARAM_TYPES ? module_param_types[t].name : "?";
}

uint32_t we_param_type_size(we_param_type t)
{
	return (unsigned)t < MODULE_NPARAM_TYPES ? module_param_types[t].size : 0;
}

we_status we_module_globals(const we_module *m, we_devptr *ptr, size_t *bytes)
{
	if (!m || !ptr || !bytes)
		return WE_ERR_INVALID;
	*ptr = m->globals;
	*bytes = m->globals_size;
	return WE_OK;
}

const we_kernel_info *we_module_find_kernel(const we_module *m, const char *name)
{
	if (!m)
		return NULL;
	if (!name)
		return m->nkernels == 1 ? &m->kernels[0].info : NULL;
	for (uint32_t i = 0; i < m->nkernels; i++)
		if (!strcmp(m->kernels[i].name, name))
			return &m->kernels[i].info;
	return NULL;
}

/* The kernel a launch names (NULL: the module's only one), or NULL after
 * recording why there is none. */
static const we_kernel *launch_kernel(we_device *dev, const we_module *m, const char *kernel)
{
	for (uint32_t i = 0; i < m->nkernels; i++)
		if (kernel ? !strcmp(m->kernels[i].name, kernel) : m->nkernels == 1)
			return &m->kernels[i];
	if (kernel)
		dev_error(dev, "no kernel named '%s' in the module", kernel);
	else
		dev_error(dev, "the module has %u kernels: name one", m->nkernels);
	return NULL;
}

void we_device_memory(const we_device *dev, uint64_t *limit, uint64_t *used)
{
	if (limit)
		*limit = dev ? dev->max_memory : 0;
	if (used)
		*used = dev ? dev->used : 0;
}

we_status we_launch_check(we_device *dev, const we_module *m, const char *kernel,
			  const we_launch_config *cfg, size_t params_size)
{
	if (!dev || !m || !cfg)
		return WE_ERR_INVALID;
	const we_kernel *k = launch_kernel(dev, m, kernel);
	if (!k)
		return WE_ERR_LOAD;
	return engine_check_launch(dev, k, cfg, params_size);
}

/* A launch of the grid or of part of it (NULL), its report and hazards
 * kept on dev. */
static we_status launch(we_device *dev, const we_module *m, const char *kernel,
			const we_launch_config *cfg, const void *params, size_t params_size,
			const eng_part *part, we_launch_stats *stats, uint64_t *report_cta)
{
	if (!dev || !m || !cfg || (!params && params_size))
		return WE_ERR_INVALID;
	const we_kernel *k = launch_kernel(dev, m, kernel);
	if (!k)
		return WE_ERR_LOAD;
	eng_output out;
	we_status st = engine_launch(dev, m, k, cfg, params, params_size, part, stats, &out);
	if (out.report)
		dev_error_take(dev, out.report);
	free(dev->report_json);
	dev->report_json = out.report_json;
	free(dev->warnings);
	dev->warnings = out.warnings;
	free(dev->profile);
	dev->profile = out.profile;
	free(dev->profile_json);
	dev->profile_json = out.profile_json;
	if (report_cta)
		*report_cta = out.report_cta;
	return st;
}

we_status we_launch(we_device *dev, const we_module *m, const char *kernel,
		    const we_launch_config *cfg, const void *params, size_t params_size,
		    we_launch_stats *stats)
{
	if (dev)
		(void)dev_atomics_reset(dev, false); /* (cannot fail) */
	return launch(dev, m, kernel, cfg, params, params_size, NULL, stats, NULL);
}

we_status we_launch_part(we_device *dev, const we_module *m, const char *kernel,
			 const we_launch_config *cfg, const void *params, size_t params_size,
			 const we_grid_part *part, we_launch_stats *stats, uint64_t *report_cta)
{
	if (!dev || !cfg || !part)
		return WE_ERR_INVALID;
	if (report_cta)
		*report_cta = 0;
	const uint64_t n = (uint64_t)cfg->grid.x * cfg->grid.y * cfg->grid.z;
	if (part->first > n || part->count > n - part->first) {
		dev_error(dev, "part [%llu, +%llu) is outside the grid of %llu CTAs",
			  (unsigned long long)part->first, (unsigned long long)part->count,
			  (unsigned long long)n);
		return WE_ERR_INVALID;
	}
	if (!dev_atomics_reset(dev, part->track_atomics)) {
		dev_error(dev, "out of host memory for the atomic maps");
		return WE_ERR_NOMEM;
	}
	if (part->count == 0) {
		/* nothing to run; the checks of a launch still apply */
		if (stats)
			memset(stats, 0, sizeof *stats);
		return we_launch_check(dev, m, kernel, cfg, params_size);
	}
	const eng_part p = { part->first, part->count, part->track_atomics };
	return launch(dev, m, kernel, cfg, params, params_size, &p, stats, report_cta);
}

void we_device_cancel_from(we_device *dev, uint64_t cta)
{
	if (dev)
		atomic_store_explicit(&dev->cancel_from, cta, memory_order_relaxed);
}

we_status we_device_set_report(we_device *dev, const char *text, const char *json)
{
	if (!dev || !text)
		return WE_ERR_INVALID;
	char *t = strdup(text), *j = json ? strdup(json) : NULL;
	if (!t || (json && !j)) {
		free(t);
		free(j);
		return WE_ERR_NOMEM;
	}
	dev_error_take(dev, t);
	free(dev->report_json);
	dev->report_json = j;
	return WE_OK;
}
