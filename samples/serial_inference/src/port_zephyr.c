/*
 * port_zephyr.c - tinyaot_port.h on Zephyr, for the shared serial runner
 * (firmware/serial_runner/runner.c), and main().
 *
 * The protocol owns the console UART (zephyr,console in devicetree); prj.conf
 * turns the console and boot banner off so no text mixes with frames.
 */
#include <stdint.h>

#include <zephyr/kernel.h>
#include <zephyr/device.h>
#include <zephyr/drivers/uart.h>
#include <zephyr/sys/printk.h>
#include <zephyr/sys/ring_buffer.h>

#include "tinyaot_port.h"
#include "serial_inference_io.h" /* SERIAL_INFERENCE_IO_BYTES, from the model's JSON */

/* Set by CMake to the descriptor symbol, e.g. tinyaot_hello_world_model. */
extern const struct tinyaot_model TINYAOT_RUNNER_MODEL;

#define STACK_PAINT 0xA5u
/* Bytes left unpainted below paint()'s own frame, so it never overwrites itself. */
#define PAINT_MARGIN 64u

static const struct device *const uart = DEVICE_DT_GET(DT_CHOSEN(zephyr_console));

/* Input and output tensors; sized for this model at build time. */
static uint8_t io_buffer[SERIAL_INFERENCE_IO_BYTES] __aligned(8);

#ifdef CONFIG_UART_INTERRUPT_DRIVEN
/*
 * Received bytes go through a ring buffer filled by the UART interrupt, so a
 * host that sends a whole frame at once loses nothing while the runner is
 * busy (a UART's hardware FIFO is a few bytes at most).
 */
#define RX_BUF_SIZE 512
RING_BUF_DECLARE(rx_ring, RX_BUF_SIZE);
K_SEM_DEFINE(rx_sem, 0, 1);

static void uart_isr(const struct device *dev, void *user_data)
{
	uint8_t buf[16];
	int n;

	(void)user_data;
	while (uart_irq_update(dev) && uart_irq_is_pending(dev)) {
		if (!uart_irq_rx_ready(dev)) {
			continue;
		}
		n = uart_fifo_read(dev, buf, sizeof(buf));
		if (n > 0) {
			/* A full ring drops bytes; the runner then answers "bad CRC". */
			(void)ring_buf_put(&rx_ring, buf, (uint32_t)n);
			k_sem_give(&rx_sem);
		}
	}
}

uint8_t tinyaot_port_getc(void)
{
	uint8_t c;

	while (ring_buf_get(&rx_ring, &c, 1) == 0) {
		(void)k_sem_take(&rx_sem, K_FOREVER);
	}
	return c;
}
#else
uint8_t tinyaot_port_getc(void)
{
	unsigned char c;

	while (uart_poll_in(uart, &c) != 0) {
		k_yield();
	}
	return c;
}
#endif

#ifdef CONFIG_SERIAL_INFERENCE_HEX_LINES
/*
 * For hosts that read the console as text lines (Twister's pytest harness):
 * each frame the runner sends goes out as one line "frame <hex bytes>". The
 * bytes are the protocol's; the frame's end comes from its length field
 * (A5 5A type len_lo len_hi, then len payload bytes and 2 CRC bytes).
 */
static void put_text(const char *s)
{
	while (*s != '\0') {
		uart_poll_out(uart, (unsigned char)*s++);
	}
}

void tinyaot_port_putc(uint8_t c)
{
	static const char hex[] = "0123456789abcdef";
	static uint32_t sent;   /* bytes of the current frame sent, this one included */
	static uint32_t length; /* whole frame's bytes, once its header is known */

	if (sent == 0u) {
		put_text("frame ");
	}
	uart_poll_out(uart, (unsigned char)hex[c >> 4]);
	uart_poll_out(uart, (unsigned char)hex[c & 0xFu]);
	sent++;
	if (sent == 4u) {
		length = c;
	} else if (sent == 5u) {
		length = (length | ((uint32_t)c << 8)) + 7u;
	} else if (sent > 5u && sent == length) {
		put_text("\n");
		sent = 0u;
	}
}
#else
void tinyaot_port_putc(uint8_t c)
{
	uart_poll_out(uart, c);
}
#endif

/* k_cycle_get_32() extended to 64 bits; the runner reads it at least once per
 * request, far more often than the counter wraps. */
uint64_t tinyaot_port_cycles(void)
{
	static uint32_t last;
	static uint32_t high;
	uint32_t now = k_cycle_get_32();

	if (now < last) {
		high++;
	}
	last = now;
	return ((uint64_t)high << 32) | now;
}

uint32_t tinyaot_port_cycles_hz(void)
{
	return (uint32_t)sys_clock_hw_cycles_per_sec();
}

/* Top of the painted area, as an address (the frame it came from is gone). */
static uintptr_t paint_top;

/*
 * Paints the current thread's unused stack (its bottom up to just below this
 * frame). The address of a local stands in for the stack pointer: plain C.
 */
void tinyaot_port_stack_paint(void)
{
	volatile uint8_t here = 0;
	uint8_t *p = (uint8_t *)k_current_get()->stack_info.start;

	paint_top = (uintptr_t)&here - PAINT_MARGIN;
	while ((uintptr_t)p < paint_top) {
		*p++ = STACK_PAINT;
	}
	(void)here;
}

uint32_t tinyaot_port_stack_used(void)
{
	const uint8_t *p = (const uint8_t *)k_current_get()->stack_info.start;

	while ((uintptr_t)p < paint_top && *p == STACK_PAINT) {
		p++;
	}
	/* + margin: the unpainted gap was in use by paint() and by run() alike. */
	return (uint32_t)(paint_top - (uintptr_t)p) + PAINT_MARGIN;
}

uint8_t *tinyaot_port_io_buffer(uint32_t *size)
{
	*size = (uint32_t)sizeof(io_buffer);
	return io_buffer;
}

#ifdef CONFIG_SERIAL_INFERENCE_SELFTEST
/*
 * One inference on a fixed pattern, printed: what Twister's console regex
 * checks (sample.yaml has TFLM's outputs for the bundled model). Uses the
 * runner's buffer before the runner owns it.
 */
static void selftest(const struct tinyaot_model *m)
{
	void *inputs[8];
	void *outputs[8];
	uint32_t off = 0, i, k;
	int32_t status;

	if (m->num_inputs > 8u || m->num_outputs > 8u) {
		printk("selftest: too many tensors\n");
		return;
	}
	for (i = 0; i < m->num_inputs; i++) {
		uint8_t *p = io_buffer + off;

		for (k = 0; k < m->inputs[i].size_bytes; k++) {
			p[k] = (uint8_t)(11u + 37u * k);
		}
		inputs[i] = p;
		off += (m->inputs[i].size_bytes + 7u) & ~7u;
	}
	for (i = 0; i < m->num_outputs; i++) {
		outputs[i] = io_buffer + off;
		off += (m->outputs[i].size_bytes + 7u) & ~7u;
	}
	status = m->run(inputs, outputs);
	printk("selftest %s: status %d\n", m->name, (int)status);
	for (i = 0; i < m->num_outputs; i++) {
		const uint8_t *p = outputs[i];

		printk("output %u:", (unsigned)i);
		for (k = 0; k < m->outputs[i].size_bytes && k < 64u; k++) {
			/* int8 is the common case; other types print as raw bytes. */
			if (m->outputs[i].dtype == TINYAOT_INT8) {
				printk(" %d", (int)(int8_t)p[k]);
			} else {
				printk(" %u", (unsigned)p[k]);
			}
		}
		printk("\n");
	}
	printk("selftest done\n");
}
#endif

int main(void)
{
#ifdef CONFIG_UART_INTERRUPT_DRIVEN
	uart_irq_callback_user_data_set(uart, uart_isr, NULL);
	uart_irq_rx_enable(uart);
#endif
#ifdef CONFIG_SERIAL_INFERENCE_SELFTEST
	selftest(&TINYAOT_RUNNER_MODEL);
#endif
	tinyaot_runner(&TINYAOT_RUNNER_MODEL); /* does not return */
	return 0;
}
