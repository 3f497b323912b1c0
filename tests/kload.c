/* kload.c — see kload.h. */
#include "kload.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *kl_read_source(const char *rel, size_t *len)
{
	const char *top = getenv("top_srcdir");
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", top ? top : "..", rel);
	FILE *f = fopen(path, "rb");
	if (!f)
		ck_abort_msg("cannot open %s", path);
	if (fseek(f, 0, SEEK_END) != 0)
		ck_abort_msg("cannot seek in %s", path);
	long n = ftell(f);
	if (n < 0)
		ck_abort_msg("cannot tell the size of %s", path);
	rewind(f);
	char *text = malloc((size_t)n + 1);
	if (!text)
		ck_abort_msg("out of memory reading %s", path);
	if (fread(text, 1, (size_t)n, f) != (size_t)n)
		ck_abort_msg("cannot read %s", path);
	text[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return text;
}

void kl_load(const char *text, const char *name, const char *kernel, size_t max_params,
	     we_device **dev, we_module **mod, const we_kernel_info **k)
{
	ck_assert_int_eq(we_device_create(NULL, dev), WE_OK);
	we_status st = we_module_load_text(*dev, text, strlen(text), name, mod);
	if (st != WE_OK)
		ck_abort_msg("%s: %s: %s", name, we_status_name(st), we_last_error(*dev));
	*k = kernel ? we_module_find_kernel(*mod, kernel) : we_module_kernel(*mod, 0);
	if (!*k)
		ck_abort_msg("%s has no kernel %s", name, kernel ? kernel : "(first)");
	if ((*k)->param_bytes > max_params)
		ck_abort_msg("%s: %u bytes of parameters, more than %zu", name, (*k)->param_bytes,
			     max_params);
}

const we_param_info *kl_param(const we_kernel_info *k, const char *name)
{
	for (unsigned i = 0; i < k->nparams; i++)
		if (strcmp(k->params[i].name, name) == 0)
			return &k->params[i];
	ck_abort_msg("kernel %s has no parameter %s", k->name, name);
	return NULL;
}

void kl_set_u32(const we_kernel_info *k, uint8_t *params, const char *name, uint32_t v)
{
	const we_param_info *p = kl_param(k, name);
	if (p->size != 4)
		ck_abort_msg("parameter %s has %u bytes, not 4", name, p->size);
	memcpy(params + p->offset, &v, 4);
}
